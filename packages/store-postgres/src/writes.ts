/**
 * The store's whole-session writes and its retry rule. Each write is one atomic statement or
 * transaction, so it happened whole or not at all; a dropped connection or a cancelled
 * statement is retried on a fresh connection, and a retry that finds its own write already
 * there (the commit went through, its acknowledgement was lost) counts as done. Another
 * writer's row where ours should go is a `SessionConflictError`, and nothing of ours is
 * written. Appends go through the group committer (`group-commit.ts`).
 */
import { SessionConflictError } from "@pi-sessions/core";
import type pg from "pg";
import type { FoldedLines } from "./info-fold.js";
import { KEY_COLUMNS, keyArrays, type LineRow } from "./lines.js";
import { NEXT_SEQ_FLOOR, nextSeqSql } from "./session-head.js";
import { inTransaction, isTransient } from "./transaction.js";

/** How a write that failed for a transient reason is tried again. */
export interface RetryPolicy {
  /** Tries after the first (default 5). */
  readonly retries: number;
  /** The first wait in ms, doubled on each further try (default 100). */
  readonly delayMs: number;
}

/** The writer lease a store's writes carry: its token fences off a writer that lost it. */
export interface Lease {
  /** Who holds it (a store's `owner`). */
  readonly owner: string;
  /** The fencing token: raised by every take, checked by every append. */
  readonly token: number;
  /** How long it lasts after each append, in ms. */
  readonly ttlMs: number;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries are used up; `retrying`
 * tells a write that an earlier try may have committed.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  attempt: (retrying: boolean) => Promise<T>,
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt(i > 0);
    } catch (error) {
      if (i >= policy.retries || !isTransient(error)) throw error;
      await new Promise((r) => setTimeout(r, policy.delayMs * 2 ** i));
    }
  }
}

const ROW_COLUMNS = `session_id, seq, line, raw, ${KEY_COLUMNS}, info_texts`;

/**
 * Inserts a session's rows with one `unnest` statement, whatever their number, each with the
 * texts the listing fold collected from it (`texts`, one per row).
 */
export async function insertRows(
  client: pg.ClientBase,
  s: string,
  id: string,
  rows: readonly LineRow[],
  texts: readonly (string | null)[],
): Promise<void> {
  await client.query(
    `INSERT INTO ${s}.entries (${ROW_COLUMNS})
     SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bytea[], $5::text[], $6::text[],
                              $7::text[], $8::text[], $9::text[], $10::text[])`,
    [
      id,
      rows.map((r) => r.seq),
      rows.map((r) => r.line),
      rows.map((r) => r.raw),
      ...keyArrays(rows),
      texts,
    ],
  );
}

/** The header columns of a new session. */
export interface NewSession {
  readonly id: string;
  readonly cwd: string | null;
  readonly parentSession: string | null;
  readonly created: string | null;
  readonly header: string;
  readonly headerSeq: number;
  readonly needsNewline: boolean;
  readonly rows: readonly LineRow[];
  /** The listing fold over `rows`. */
  readonly folded: FoldedLines;
}

/**
 * Writes a whole new session in one transaction. An existing session of that id is a
 * conflict, unless it is exactly this one (a retry of a create that committed).
 */
export async function insertSession(
  pool: pg.Pool,
  s: string,
  session: NewSession,
  lease: Lease | undefined,
  location: string,
  retrying: boolean,
): Promise<void> {
  await inTransaction(pool, async (client) => {
    const inserted = await client.query(
      `INSERT INTO ${s}.sessions (id, cwd, parent_session, created, header, header_seq,
         ${NEXT_SEQ_FLOOR}, needs_newline, lease_owner, lease_token, lease_until, info_state,
         info_seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() + $11 * interval '1 millisecond',
               $12, $7)
       ON CONFLICT (id) DO NOTHING`,
      [
        session.id,
        session.cwd,
        session.parentSession,
        session.created,
        session.header,
        session.headerSeq,
        session.rows.length,
        session.needsNewline,
        lease?.owner ?? null,
        lease?.token ?? 0,
        lease?.ttlMs ?? 0,
        session.folded.state,
      ],
    );
    if (inserted.rowCount === 0) {
      // The row that won is committed, so this transaction sees it; it wrote nothing itself.
      const existing = await client.query<{ header: string; next_seq: string }>(
        `SELECT header, ${nextSeqSql(s, "s")} AS next_seq FROM ${s}.sessions s WHERE id = $1`,
        [session.id],
      );
      const row = existing.rows[0];
      // Only a retry may find its own session there: a first try that does has a twin.
      const ours = row?.header === session.header && Number(row.next_seq) >= session.rows.length;
      if (retrying && ours) return;
      throw new SessionConflictError(location, `a session with id ${session.id} exists already`);
    }
    await insertRows(client, s, session.id, session.rows, session.folded.texts);
  });
}
