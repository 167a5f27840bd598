/**
 * The sink of one PostgreSQL session: core's `queuedSink` (the fold happens at once, writes
 * queue in order, the first failure stops the queue and fails the manager), whose writes are
 * a whole-session insert first and then the appended lines at the seqs this sink expects.
 * Appends queued behind one another go together: when the queue reaches an append, every
 * append queued behind it joins it as one group (one commit, all or nothing), and the store's
 * group committer sends the groups of all its sessions in one statement.
 */
import {
  type QueuedWrite,
  queuedSink,
  type SessionEntry,
  type SessionSink,
  type StoredSessionContent,
} from "@pi-sessions/core";
import { sessionLines } from "@pi-sessions/core/internal";
import type pg from "pg";
import type { GroupCommitter } from "./group-commit.js";
import { appendedRows, foldLines, LineFold, type WriterFold } from "./info-fold.js";
import { splitFile } from "./lines.js";
import { nextSeqSql } from "./session-head.js";
import { insertSession, type Lease, type RetryPolicy, withRetry } from "./writes.js";

/**
 * The listing state is saved with a group once this many lines went unsaved... A save makes
 * its append claim the session row (an UPDATE with the state) instead of the fast path's
 * insert, and encodes the fold's state first: measured, one writer, about 70-90 µs more for
 * that append, so every 16 lines cost a lone writer 1-5 % of its appends (interleaved runs,
 * 16/64/256 lines: 0.89/0.93/0.95 of the raw insert). A listing folds the lines after the
 * state of a session whose writer is still at it (one that lets go saves the state then).
 */
const SAVE_EVERY_LINES = 64;
/** ...or this many bytes of lines (a listing folds at most about this much of a session). */
const SAVE_EVERY_BYTES = 32 * 1024;
/** Appends sent as one group at most (the rest go in the next). */
const MAX_GROUP = 500;
/**
 * A lease is renewed by an append once this share of its ttl passed since the writer last
 * renewed it (by its own clock, from before it sent the renewing statement, so never later
 * than the server's renewal); appends between go without touching the session row.
 */
const RENEW_AFTER_TTL_SHARE = 1 / 3;

/** The listing state a sink saves as it lets go of the session. */
export interface FinalState {
  readonly state: Buffer;
  /** The session's next seq it is the state at (saved only if that is still the next seq). */
  readonly nextSeq: number;
}

/** What one session's sink writes with. */
export interface SinkContext {
  readonly pool: pg.Pool;
  readonly committer: GroupCommitter;
  /** The quoted schema. */
  readonly s: string;
  readonly id: string;
  readonly location: string;
  readonly retry: RetryPolicy;
  /** The lease its writes carry (absent: no lease, the seq alone decides). */
  readonly lease: Lease | undefined;
  /** The seq of the session's next line, when it exists already (opened, not created). */
  readonly nextSeq?: number;
  /** Whether the opened session's last line has no `\n` (its next append writes one). */
  readonly needsNewline?: boolean;
  /** When the lease of an opened session was taken (`performance.now()` before its load). */
  readonly leaseTakenAt?: number;
  /** The listing fold after the opened session's lines (absent: this sink keeps none). */
  readonly fold?: WriterFold;
  /**
   * Called once, when the manager lets go of the session: after `after` (the queued writes)
   * settles, the lease is given up and `final()`, the fold's state then, saved.
   */
  readonly letGo: (
    lease: Lease | undefined,
    after: Promise<void>,
    final: () => FinalState | undefined,
  ) => void;
}

/** The queued sink of a session; `createWith` queues a session's first, whole write. */
export function postgresSink(c: SinkContext): SessionSink & {
  createWith(content: StoredSessionContent): void;
} {
  let next = c.nextSeq ?? 0;
  // What the session row needs from the next append, as this writer knows it: a newline
  // owed, and when the writer last renewed its lease (never: renew with the first append).
  let needsNewline = c.needsNewline ?? false;
  let renewedAt = c.leaseTakenAt ?? Number.NEGATIVE_INFINITY;
  const renewEvery = (c.lease?.ttlMs ?? 0) * RENEW_AFTER_TTL_SHARE;
  // The listing fold after every line written so far (none: the stored state is left as is),
  // and how far the stored state is behind it.
  let fold = c.fold?.fold;
  let savedSeq = c.fold?.savedSeq ?? 0;
  let unsavedBytes = 0;
  // The seq of the next line the fold will see: ahead of `next` while a group is on its way.
  let foldedTo = next;
  // The lines of appends queued and not yet sent, in order; the group the queue reached last,
  // and how many of its appends the queue has still to reach (each returns the group).
  const unsent: string[] = [];
  let group: Promise<void> = Promise.resolve();
  let groupLeft = 0;

  const sendGroup = async (lines: readonly string[]): Promise<void> => {
    const { rows, texts } = appendedRows(fold, next, lines);
    foldedTo = next + rows.length;
    for (const line of lines) unsavedBytes += line.length;
    const end = next + rows.length;
    const due = end - savedSeq >= SAVE_EVERY_LINES || unsavedBytes >= SAVE_EVERY_BYTES;
    const state = fold && due ? fold.save() : null;
    const sentAt = performance.now();
    const renew = state !== null || needsNewline || !(sentAt - renewedAt < renewEvery);
    const group = { id: c.id, location: c.location, rows, texts, lease: c.lease, state, renew };
    await c.committer.submit(group);
    next = end;
    needsNewline = false;
    // A group that needs no renewal may still have been claimed with the UPDATE (in a round
    // with others): the writer's clock then counts from its last renewal it asked for.
    if (renew) renewedAt = sentAt;
    if (state) {
      savedSeq = end;
      unsavedBytes = 0;
    }
  };

  // The queue reaches appends in the order they were queued, each once, and stops at the
  // first failure: the first unsent one goes with every one queued behind it. Not an async
  // function: its group's own promise is the answer, without one more to wait through.
  const writeAppend = (): Promise<void> => {
    if (groupLeft === 0) {
      const lines = unsent.splice(0, MAX_GROUP);
      if (lines.length === 0) {
        return Promise.reject(new Error(`An append without its line: ${c.location}`));
      }
      group = sendGroup(lines);
      groupLeft = lines.length;
    }
    groupLeft--;
    return group;
  };

  const writeCreate = async (content: StoredSessionContent): Promise<void> => {
    const { header, entries } = content;
    // The lines the file store would write for the whole session, then split as a file is.
    const { rows } = splitFile(Buffer.from(sessionLines(header, entries).join(""), "utf8"));
    const created = LineFold.fresh();
    const folded = foldLines(rows, created);
    const h = header as unknown as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === "string" ? v : null);
    const session = {
      id: c.id,
      cwd: text(h.cwd),
      parentSession: text(h.parentSession),
      created: text(h.timestamp),
      header: rows[0]?.line as string,
      headerSeq: 0,
      needsNewline: false,
      rows,
      folded,
    };
    const sentAt = performance.now();
    await withRetry(c.retry, (retrying) =>
      insertSession(c.pool, c.s, session, c.lease, c.location, retrying),
    );
    renewedAt = sentAt;
    needsNewline = false;
    next = rows.length;
    foldedTo = next;
    fold = created;
    savedSeq = rows.length;
    unsavedBytes = 0;
  };
  const write = (w: QueuedWrite): Promise<void> =>
    w.kind === "append" ? writeAppend() : writeCreate(w.content);
  const inner = queuedSink({ location: c.location, write, written: c.nextSeq !== undefined });
  let released = false;
  const release = (): void => {
    // A session never written (a manager's pending new one) has nothing to let go of.
    if (released || !inner.written) return;
    released = true;
    // After the queued writes: giving the lease up first would let a writer in between them.
    const after = inner.flush().catch(() => {});
    // The state then, only if it is the state after exactly the lines stored (no group of a
    // later append on its way, none failed) and some of them are not covered by a saved one.
    const final = () => {
      if (!fold || foldedTo !== next || savedSeq >= next || inner.failure) return undefined;
      const state = fold.save();
      return state === null ? undefined : { state, nextSeq: next };
    };
    c.letGo(c.lease, after, final);
  };
  // The manager hands each entry over as the line it serialised (`appendLine`): that line is
  // stored as it is. Only a first write needs entries (the whole session, from `session()`).
  // An append of a written session is queued as its line (the queue never asks for its entry),
  // and its write sends every line still unsent, so appends queued behind it go with it.
  const appendLine = (
    line: string,
    entry: () => SessionEntry,
    session: () => StoredSessionContent,
  ): void => {
    if (inner.written) unsent.push(line);
    inner.appendLine(line, entry, session);
  };
  // The queued sink's own getters and methods, with appends tracking what is unsent (its
  // `append` serialises the entry and calls this `appendLine`) and release and close letting
  // the session go.
  return Object.assign(Object.create(inner) as typeof inner, {
    appendLine,
    release,
    close: release,
  });
}

/**
 * After `after` (a sink's queued writes), gives its lease up and saves the listing state of
 * the lines its writer did not save it for, in one statement; the state only while nobody
 * appended since (the session's next seq is still the state's). Never rejects: a lease that
 * cannot be given up (the server gone) expires by itself after its ttl, and a state not saved
 * leaves listings to fold a few more lines.
 */
export async function letGo(
  pool: pg.Pool,
  s: string,
  id: string,
  lease: Lease | undefined,
  after: Promise<void>,
  final: () => FinalState | undefined,
): Promise<void> {
  try {
    await after;
    const state = final();
    if (!lease && !state) return;
    await pool.query(
      `UPDATE ${s}.sessions s
          SET lease_owner = CASE WHEN lease_token = $2 THEN NULL ELSE lease_owner END,
              lease_until = CASE WHEN lease_token = $2 THEN NULL ELSE lease_until END,
              info_state = CASE WHEN ${nextSeqSql(s, "s")} = $4 THEN $3 ELSE info_state END,
              info_seq = CASE WHEN ${nextSeqSql(s, "s")} = $4 THEN $4 ELSE info_seq END
        WHERE id = $1 AND (lease_token = $2 OR ${nextSeqSql(s, "s")} = $4)`,
      [id, lease?.token ?? null, state?.state ?? null, state?.nextSeq ?? null],
    );
  } catch {
    // See above: nothing of it is the caller's to handle.
  }
}
