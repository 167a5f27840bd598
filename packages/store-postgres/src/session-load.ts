/**
 * Loading a session from PostgreSQL before the manager opens it: the writer lease is taken
 * and every line read in one transaction (appenders wait on the session row's lock meanwhile,
 * so the lines and the next seq agree), then the lines go through core's own loader as the file
 * store's reader would give them. A legacy session is migrated and written back whole, as
 * the file store rewrites a legacy file when it opens it.
 */
import { SessionConflictError } from "@pi-sessions/core";
import { type LoadedText, loadText, type SessionEnv } from "@pi-sessions/core/internal";
import type pg from "pg";
import {
  catchUp,
  type FoldRepair,
  foldLines,
  LineFold,
  resumeSaved,
  type WriterFold,
} from "./info-fold.js";
import { fileText, type LineRow, type StoredLine, splitFile } from "./lines.js";
import { NEXT_SEQ_FLOOR, nextSeqSql } from "./session-head.js";
import { inTransaction } from "./transaction.js";
import { insertRows, type Lease } from "./writes.js";

/** Thrown when another writer holds the session's lease and it has not expired. */
export class SessionLeasedError extends Error {
  constructor(
    /** The session's location. */
    readonly location: string,
    /** Who holds the lease. */
    readonly owner: string | null,
    /** When it expires unless renewed. */
    readonly until: Date | null,
  ) {
    super(
      `Session is leased by another writer (${owner ?? "unknown"} until ${until?.toISOString() ?? "?"}): ${location}`,
    );
    this.name = "SessionLeasedError";
  }
}

/** Thrown when the database has no session of that id. */
export class SessionNotFoundError extends Error {
  constructor(
    /** The location asked for. */
    readonly location: string,
  ) {
    super(`No session in the database at ${location}`);
    this.name = "SessionNotFoundError";
  }
}

/** A session as loaded: the replay, where its next line goes, and the lease held. */
export interface LoadedSession {
  readonly loaded: LoadedText;
  readonly nextSeq: number;
  /** Whether its last line has no `\n` (the next append's statement writes one). */
  readonly needsNewline: boolean;
  readonly lease: Lease | undefined;
  /** When the lease was taken, by `performance.now()` before the statement that took it. */
  readonly leaseTakenAt: number;
  /**
   * The listing fold after all its lines, and the seq up to which the stored state and texts
   * agree with it (undefined: the writer keeps no fold; the stored state stays as it is).
   */
  readonly fold: WriterFold | undefined;
  /** Loaded for reading only: no lease taken, nothing rewritten, never opened for writing. */
  readonly readOnly: boolean;
}

/** The sessions `load` read, each waiting for the `open` or `read` it is handed to once. */
export class LoadedSessions {
  private readonly byLocation = new Map<string, LoadedSession>();

  /** Keeps `session` for the next `take` of `location` (replacing one not taken). */
  put(location: string, session: LoadedSession): void {
    this.byLocation.set(location, session);
  }

  /** The session loaded for `location`, still kept. */
  peek(location: string): LoadedSession | undefined {
    return this.byLocation.get(location);
  }

  /** The session loaded for `location`, handed over once; throws when none was loaded. */
  take(location: string): LoadedSession {
    const session = this.byLocation.get(location);
    if (!session) {
      throw new Error(
        `A PostgreSQL session must be loaded before it is opened (await store.load(id)): ${location}`,
      );
    }
    this.byLocation.delete(location);
    return session;
  }
}

/** What {@link loadSession} needs. */
export interface LoadRequest {
  readonly pool: pg.Pool;
  /** The quoted schema. */
  readonly s: string;
  readonly id: string;
  readonly location: string;
  readonly env: SessionEnv;
  /** Take the writer lease for this owner (absent: read without one). */
  readonly lease?: { readonly owner: string; readonly ttlMs: number };
  /** Only read: no lease, no rewrite of a legacy session, no repair of the listing state. */
  readonly readOnly?: boolean;
}

interface SessionRow {
  next_seq: string;
  needs_newline: boolean;
  lease_owner: string | null;
  lease_until: Date | null;
  lease_token: string;
  info_state: Buffer | null;
  info_seq: string | null;
}

/** Takes the lease (a new fencing token) unless a live lease of another owner holds it. */
async function takeLease(
  client: pg.PoolClient,
  r: LoadRequest,
  want: { owner: string; ttlMs: number },
): Promise<Lease> {
  const taken = await client.query<{ lease_token: string }>(
    `UPDATE ${r.s}.sessions
        SET lease_owner = $2, lease_token = lease_token + 1,
            lease_until = now() + $3 * interval '1 millisecond'
      WHERE id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < now())
      RETURNING lease_token`,
    [r.id, want.owner, want.ttlMs],
  );
  const row = taken.rows[0];
  if (row) return { ...want, token: Number(row.lease_token) };
  const held = await client.query<SessionRow>(
    `SELECT lease_owner, lease_until FROM ${r.s}.sessions WHERE id = $1`,
    [r.id],
  );
  const h = held.rows[0];
  if (!h) throw new SessionNotFoundError(r.location);
  throw new SessionLeasedError(r.location, h.lease_owner, h.lease_until);
}

/** Loads a session (taking the lease when asked); throws when it is missing or leased. */
export async function loadSession(r: LoadRequest): Promise<LoadedSession> {
  const leaseTakenAt = performance.now();
  const read = await inTransaction(r.pool, async (client) => {
    const lease = r.lease && !r.readOnly ? await takeLease(client, r, r.lease) : undefined;
    // A load for writing locks the row against every append (a leased writer's line takes a
    // share lock of it, see `append-groups.ts`) until its lines are read, so that its next
    // seq and its lines agree; a read-only load needs no next seq and lets appends go on.
    const found = await client.query<SessionRow>(
      `SELECT ${nextSeqSql(r.s, "s")} AS next_seq, needs_newline, info_state, info_seq
         FROM ${r.s}.sessions s WHERE id = $1 FOR ${r.readOnly ? "SHARE" : "NO KEY UPDATE"}`,
      [r.id],
    );
    const session = found.rows[0];
    if (!session) throw new SessionNotFoundError(r.location);
    // The texts of the lines after the saved state (all of them when it is of no use here),
    // which the writer's fold checks as it folds those lines again.
    const resumed = resumeSaved(session.info_state, session.info_seq, session.next_seq);
    const from = resumed ? Number(session.info_seq) : 0;
    const rows = await client.query<StoredLine & { info_texts: string | null }>(
      `SELECT line, raw, CASE WHEN seq >= $2 THEN info_texts END AS info_texts
         FROM ${r.s}.entries WHERE session_id = $1 ORDER BY seq`,
      [r.id, from],
    );
    return { lease, session, lines: rows.rows, resumed, from };
  });
  const { lease, session, lines } = read;
  const loaded = loadText(fileText(lines, session.needs_newline), r.env, r.location);
  const nextSeq = Number(session.next_seq);
  const needsNewline = session.needs_newline;
  const readOnly = r.readOnly ?? false;
  if (loaded.rewrite && !readOnly) {
    return {
      loaded,
      lease,
      leaseTakenAt,
      readOnly,
      needsNewline: false,
      ...(await rewriteSession(r, loaded.rewrite, nextSeq, lease)),
    };
  }
  // A legacy session read only is migrated in memory (its ids drawn here): never written on.
  if (readOnly || loaded.rewrite) {
    return { loaded, nextSeq, needsNewline, lease, leaseTakenAt, fold: undefined, readOnly };
  }
  const caught = catchUp(read.resumed, read.from, lines);
  const fold = caught.repair
    ? await repairFold(r, nextSeq, lease, caught.fold, caught.repair)
    : { fold: caught.fold, savedSeq: read.from };
  return { loaded, nextSeq, needsNewline, lease, leaseTakenAt, fold, readOnly };
}

/**
 * Replaces a legacy session's lines by its migrated ones, in one transaction, only while
 * nobody appended since the load (else a conflict: the migrated ids would not match theirs).
 */
async function rewriteSession(
  r: LoadRequest,
  lines: readonly string[],
  loadedNext: number,
  lease: Lease | undefined,
): Promise<{ nextSeq: number; fold: WriterFold }> {
  const { rows } = splitFile(Buffer.from(lines.join(""), "utf8"));
  const header = rows[0] as LineRow;
  const fold = LineFold.fresh();
  const folded = foldLines(rows, fold);
  return inTransaction(r.pool, async (client) => {
    const claimed = await client.query(
      `UPDATE ${r.s}.sessions s SET header = $3, header_seq = 0, ${NEXT_SEQ_FLOOR} = $4,
              needs_newline = false, updated_at = now(), info_state = $6, info_seq = $4
        WHERE id = $1 AND ${nextSeqSql(r.s, "s")} = $2
          AND ($5::bigint IS NULL OR lease_token = $5)`,
      [r.id, loadedNext, header.line, rows.length, lease?.token ?? null, folded.state],
    );
    if (claimed.rowCount !== 1) {
      throw new SessionConflictError(r.location, "another writer appended during its migration");
    }
    await client.query(`DELETE FROM ${r.s}.entries WHERE session_id = $1`, [r.id]);
    await insertRows(client, r.s, r.id, rows, folded.texts);
    return { nextSeq: rows.length, fold: { fold, savedSeq: rows.length } };
  });
}

/**
 * Saves the texts the fold found different and its state after every line, only while nobody
 * appended since the load (and the lease is still ours); else the writer keeps no fold.
 */
async function repairFold(
  r: LoadRequest,
  nextSeq: number,
  lease: Lease | undefined,
  fold: LineFold,
  repair: FoldRepair,
): Promise<WriterFold | undefined> {
  try {
    await inTransaction(r.pool, async (client) => {
      const claimed = await client.query(
        `UPDATE ${r.s}.sessions s SET info_state = $3, info_seq = $2
          WHERE id = $1 AND ${nextSeqSql(r.s, "s")} = $2
            AND ($4::bigint IS NULL OR lease_token = $4)`,
        [r.id, nextSeq, fold.save(), lease?.token ?? null],
      );
      if (claimed.rowCount !== 1) throw new SessionConflictError(r.location, "appended meanwhile");
      await client.query(
        `UPDATE ${r.s}.entries e SET info_texts = u.texts
           FROM unnest($2::bigint[], $3::text[]) AS u(seq, texts)
          WHERE e.session_id = $1 AND e.seq = u.seq`,
        [r.id, repair.seqs, repair.texts],
      );
    });
    return { fold, savedSeq: nextSeq };
  } catch (error) {
    // Someone appended since the load: its writer keeps the stored state as it is.
    if (error instanceof SessionConflictError) return undefined;
    throw error;
  }
}
