/**
 * Named statements as the store sends them: built once per schema, sent as query objects.
 */
import pg from "pg";

/**
 * Sends a named statement through the pool. Not as a config object: pg copies one (all its
 * property descriptors, about 3 µs) on every call; a query made from the text alone is not
 * copied, and its name is set on it. The pool answers a query object as it answers a config
 * (a promise of its result, the connection released either way).
 */
export function sendNamed<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  statement: { readonly name: string; readonly text: string; readonly values: unknown[] },
): Promise<pg.QueryResult<R>> {
  const query = new pg.Query(statement.text, statement.values) as pg.Query & { name: string };
  query.name = statement.name;
  // The pool's own promise, not awaited here: a lone writer waits on every hop to its answer.
  return pool.query(query) as unknown as Promise<pg.QueryResult<R>>;
}

/** A named statement's name and text. */
export interface NamedText {
  readonly name: string;
  readonly text: string;
}

/**
 * A schema's statement, built once per schema: a writer sends it for every append, and pg
 * compares a named statement's text with the one it prepared on every call (the same string
 * is one pointer compare; a string built again is a scan of it, and its garbage).
 */
export function perSchema(make: (s: string) => NamedText): (s: string) => NamedText {
  const made = new Map<string, NamedText>();
  return (s) => {
    let statement = made.get(s);
    if (!statement) {
      statement = make(s);
      made.set(s, statement);
    }
    return statement;
  };
}
