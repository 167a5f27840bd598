/**
 * What code before migration 4 sent (commit 3bfc7f6, copied as literal text so the test does
 * not depend on that commit being at hand), and how a schema is taken back to version 3, as
 * that code left it (the row's next seq exact, no `written_at`).
 */
import type pg from "pg";
import { lastWriteSql } from "../../src/session-head.js";

/**
 * A lone line's claim and insert (`oneStatement` of `append-groups.ts`): $1 session, $2 seq,
 * $3 line, $4 to $8 the key columns, $9 lease token, $10 ttl, $11 state, $12 texts.
 */
export const oldAppendOne = (s: string): string => `WITH claimed AS (
       UPDATE ${s}.sessions
          SET next_seq = $2 + 1, needs_newline = false, updated_at = now(),
              lease_until = CASE WHEN $9::bigint IS NULL THEN lease_until
                                 ELSE now() + $10 * interval '1 millisecond' END,
              info_state = CASE WHEN $11::bytea IS NULL THEN info_state ELSE $11 END,
              info_seq = CASE WHEN $11::bytea IS NULL THEN info_seq ELSE $2 + 1 END
        WHERE id = $1 AND next_seq = $2 AND ($9::bigint IS NULL OR lease_token = $9)
        RETURNING id)
     INSERT INTO ${s}.entries (session_id, seq, line, entry_id, parent_id, type, ts, role, info_texts)
     SELECT id, $2, $3, $4, $5, $6, $7, $8, $12 FROM claimed`;

/** The load's take of the lease (`takeLease`): $1 session, $2 owner, $3 ttl. */
export const oldTakeLease = (s: string): string => `UPDATE ${s}.sessions
        SET lease_owner = $2, lease_token = lease_token + 1,
            lease_until = now() + $3 * interval '1 millisecond'
      WHERE id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < now())
      RETURNING lease_token`;

/** The load's read of the session row, after the take in the same transaction: $1 session. */
export const oldLoadRow = (s: string): string =>
  `SELECT next_seq, needs_newline, info_state, info_seq FROM ${s}.sessions
        WHERE id = $1 FOR SHARE`;

/**
 * The close (`letGo`): the lease given up and the listing state saved while the row's next
 * seq is the state's: $1 session, $2 lease token, $3 state, $4 its next seq.
 */
export const oldLetGo = (s: string): string => `UPDATE ${s}.sessions
          SET lease_owner = CASE WHEN lease_token = $2 THEN NULL ELSE lease_owner END,
              lease_until = CASE WHEN lease_token = $2 THEN NULL ELSE lease_until END,
              info_state = CASE WHEN next_seq = $4 THEN $3 ELSE info_state END,
              info_seq = CASE WHEN next_seq = $4 THEN $4 ELSE info_seq END
        WHERE id = $1 AND (lease_token = $2 OR next_seq = $4)`;

/**
 * Takes a migrated schema back to version 3: the row's next seq and last write made exact,
 * the column under its old name, no `written_at`, no version 4 row. The column's name is the
 * schema's (what migration 4 renamed it to, or `next_seq` where it kept the name).
 */
export async function toVersion3(pool: pg.Pool, s: string): Promise<void> {
  const columns = await pool.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = $1 AND table_name = 'sessions' AND column_name LIKE 'next_seq%'`,
    [s.replaceAll('"', "")],
  );
  const next = columns.rows[0]?.name as string;
  await pool.query(
    `UPDATE ${s}.sessions s
        SET ${next} = GREATEST(s.${next},
              (SELECT max(e.seq) + 1 FROM ${s}.entries e WHERE e.session_id = s.id)),
            updated_at = ${lastWriteSql(s, "s")};
     ALTER TABLE ${s}.entries DROP COLUMN written_at;
     DELETE FROM ${s}.schema_migrations WHERE version = 4`,
  );
  if (next !== "next_seq") {
    await pool.query(`ALTER TABLE ${s}.sessions RENAME COLUMN ${next} TO next_seq`);
  }
}
