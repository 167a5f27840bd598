/**
 * The store's own schema, brought up to date by numbered migrations. Each migration runs in
 * one transaction with its version row, under a transaction-level advisory lock, so hosts
 * starting at once apply it exactly once; a migrated schema is left as it is (idempotent).
 */
import type pg from "pg";
import { foldLines } from "./info-fold.js";
import type { StoredLine } from "./lines.js";
import { inTransaction } from "./transaction.js";

/** One step of the schema: its version and the SQL that takes the previous one to it. */
export interface Migration {
  /** Its number: migrations apply in this order, each once. */
  readonly version: number;
  /** What it does, in words (kept in `schema_migrations`). */
  readonly description: string;
  /** The statements, given the quoted schema name. */
  readonly sql: (schema: string) => string;
  /** What the SQL cannot do, run after it in the same transaction, given the quoted schema. */
  readonly fill?: (client: pg.PoolClient, schema: string) => Promise<void>;
}

/**
 * Folds every session's stored lines, each under its row's lock (a writer of an older
 * version may still be appending), and saves the texts of each line and the fold's state.
 * It runs at version 1, whose `next_seq` is exact (every append updated it; migration 4
 * renames it), so it reads that column by its name then, not through `session-head.ts`.
 */
async function fillInfoStates(client: pg.PoolClient, s: string): Promise<void> {
  const ids = await client.query<{ id: string }>(`SELECT id FROM ${s}.sessions`);
  for (const { id } of ids.rows) {
    const locked = await client.query<{ next_seq: string }>(
      `SELECT next_seq FROM ${s}.sessions WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const lines = await client.query<StoredLine & { seq: string }>(
      `SELECT seq, line, raw FROM ${s}.entries WHERE session_id = $1 ORDER BY seq`,
      [id],
    );
    const { texts, state } = foldLines(lines.rows);
    await client.query(
      `UPDATE ${s}.entries e SET info_texts = u.texts
         FROM unnest($2::bigint[], $3::text[]) AS u(seq, texts)
        WHERE e.session_id = $1 AND e.seq = u.seq AND u.texts IS NOT NULL`,
      [id, lines.rows.map((l) => l.seq), texts],
    );
    await client.query(`UPDATE ${s}.sessions SET info_state = $2, info_seq = $3 WHERE id = $1`, [
      id,
      state,
      locked.rows[0]?.next_seq,
    ]);
  }
}

/**
 * Every migration, in order. A session is its header line and every other line of its file
 * in order: `seq` numbers the file's lines from 0 and the header's own `seq` is kept on the
 * session, so damaged lines before the header keep their place. A line is kept as text when
 * that text encodes back to its exact bytes, else as bytes (`raw`), so nothing is lost.
 * The other entry columns are read from the line when it is written (see `lineColumns`), so
 * queries select lines by them. A listing is core's own fold over the lines themselves, so
 * `msg_json`, `activity_ms` and `name_json`, which restated its rules, are no longer written
 * (left NULL; rows written before keep their values, which nothing reads). Since version 2
 * each session keeps that fold's state (`info_state`, see `LineFold`) as of its first
 * `info_seq` lines, and each line the texts the fold collected from it (`info_texts`). Since
 * version 3 no foreign key ties a line to its session (see the migration). Since version 4 a
 * line keeps when it was written (`written_at`) and the row's next seq (renamed
 * `next_seq_floor`) and `updated_at` are as of its last update, not its last line (see
 * `session-head.ts`).
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: "sessions and their lines",
    sql: (s) => `
      CREATE TABLE ${s}.sessions (
        id text PRIMARY KEY,
        cwd text,
        parent_session text,
        created text,
        header text NOT NULL,
        header_seq bigint NOT NULL,
        next_seq bigint NOT NULL,
        needs_newline boolean NOT NULL DEFAULT false,
        lease_owner text,
        lease_token bigint NOT NULL DEFAULT 0,
        lease_until timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX sessions_cwd ON ${s}.sessions (cwd);
      CREATE TABLE ${s}.entries (
        session_id text NOT NULL REFERENCES ${s}.sessions (id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        line text,
        raw bytea,
        entry_id text,
        parent_id text,
        type text,
        ts text,
        role text,
        msg_json text,
        activity_ms double precision,
        name_json text,
        PRIMARY KEY (session_id, seq),
        CHECK ((line IS NULL) <> (raw IS NULL))
      );
      CREATE INDEX entries_type ON ${s}.entries (type) WHERE type IS NOT NULL;
    `,
  },
  {
    version: 2,
    description: "the listing fold's state of each session",
    sql: (s) => `
      ALTER TABLE ${s}.sessions ADD COLUMN info_state bytea, ADD COLUMN info_seq bigint;
      ALTER TABLE ${s}.entries ADD COLUMN info_texts text;
    `,
    fill: fillInfoStates,
  },
  {
    version: 3,
    description: "no foreign key from entries to sessions; a session's delete deletes its lines",
    // Every append already holds its session row (the claim proves it exists and updates it),
    // so the key's check, which locked that row again for each line, only cost. Lines are
    // written by the claim or with their session in one transaction, so none is orphaned; a
    // deleted session's lines go with it, as the key's ON DELETE CASCADE did.
    sql: (s) => `
      ALTER TABLE ${s}.entries DROP CONSTRAINT IF EXISTS entries_session_id_fkey;
      CREATE FUNCTION ${s}.delete_session_entries() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          DELETE FROM ${s}.entries WHERE session_id = OLD.id;
          RETURN OLD;
        END $$;
      CREATE TRIGGER sessions_delete_entries AFTER DELETE ON ${s}.sessions
        FOR EACH ROW EXECUTE FUNCTION ${s}.delete_session_entries();
    `,
  },
  {
    version: 4,
    description: "when each line was written; the session row's next seq a lower bound",
    // A lone writer's append no longer updates its session row (see `session-head.ts`), so
    // the line keeps its own write time. Added without a default first, which changes no
    // stored row (their writers updated `updated_at` with each line: NULL says so), then
    // defaulted for new lines; both steps are catalog changes only, whatever the table's size.
    // The row's next seq is renamed, also in the catalog only: code before this version read
    // it as exact (its append would claim a seq a fast append took, its close save a listing
    // state over lines it never read), so every statement of that code fails instead, loudly,
    // changing nothing.
    sql: (s) => `
      ALTER TABLE ${s}.entries ADD COLUMN written_at timestamptz;
      ALTER TABLE ${s}.entries ALTER COLUMN written_at SET DEFAULT now();
      ALTER TABLE ${s}.sessions RENAME COLUMN next_seq TO next_seq_floor;
    `,
  },
];

/** A schema name as an SQL identifier; only plain lower-case names are accepted. */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`A schema name must be lower-case letters, digits and _: ${schema}`);
  }
  return `"${schema}"`;
}

/**
 * How long a migration waits for a table's lock (`lock_timeout`). A schema change's lock
 * request waits behind every open transaction on its table, and every statement on that table
 * queues behind the request: on a live database a long reader would stall every append for as
 * long as it reads. Past this wait the migration fails (`55P03`, nothing changed) and
 * `connect` tries it again (a transient fault), so appends go on between the tries.
 */
export const MIGRATION_LOCK_TIMEOUT_MS = 2000;

/** The newest version this code knows (its last migration's). */
const NEWEST = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);

/**
 * Brings `schema` to the newest version; returns the versions it applied (none if current).
 * A schema migrated by newer code (a version this code does not know) is refused with an
 * error and left as it is: this code's statements may no longer say what that schema means.
 */
export async function migrate(pool: pg.Pool, schema: string): Promise<number[]> {
  const s = quoteSchema(schema);
  return inTransaction(pool, async (client) => {
    const applied: number[] = [];
    // One key per schema: concurrent first starts wait here instead of racing the DDL.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`pi-sessions:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
        version integer PRIMARY KEY,
        description text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const done = await client.query<{ version: number }>(
      `SELECT version FROM ${s}.schema_migrations`,
    );
    const have = new Set(done.rows.map((r) => r.version));
    const newer = [...have].filter((v) => v > NEWEST).sort((a, b) => a - b);
    if (newer.length > 0) {
      throw new Error(
        `The schema ${schema} was migrated by newer code (version ${newer.join(", ")}; this ` +
          `code knows up to ${NEWEST}): upgrade this host to a release that knows it.`,
      );
    }
    // Taken after the advisory lock, whose wait (another host migrating) is not bounded.
    await client.query(`SET LOCAL lock_timeout = ${MIGRATION_LOCK_TIMEOUT_MS}`);
    for (const m of MIGRATIONS) {
      if (have.has(m.version)) continue;
      await client.query(m.sql(s));
      await m.fill?.(client, s);
      await client.query(
        `INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)`,
        [m.version, m.description],
      );
      applied.push(m.version);
    }
    return applied;
  });
}
