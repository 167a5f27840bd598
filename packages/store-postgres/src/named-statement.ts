/**
 * Named statements as the store sends them: built once per schema, sent as query objects.
 */
import pg from "pg";

/**
 * Sends a named statement on a connection the caller holds (the group committer keeps one
 * between rounds, `group-commit.ts`). As a query made from the text alone, answered through its
 * own callback: a config object is copied by pg on every call (all its property descriptors,
 * about 3 µs), and a config without a callback gets a promise whose stack trace pg rewrites
 * when it rejects. A connection that is not queryable (it ended) fails the query on pg's next
 * tick, as any failed statement does.
 */
export function sendNamed<R extends pg.QueryResultRow>(
  client: pg.ClientBase,
  statement: { readonly name: string; readonly text: string; readonly values: unknown[] },
): Promise<pg.QueryResult<R>> {
  return new Promise((resolve, reject) => {
    const query = new pg.Query(statement.text, statement.values, (error, result) =>
      error ? reject(error) : resolve(result as unknown as pg.QueryResult<R>),
    ) as pg.Query & { name: string };
    query.name = statement.name;
    client.query(query);
  });
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
