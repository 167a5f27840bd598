/**
 * The sink of one PostgreSQL session: core's `queuedSink` (the fold happens at once, writes
 * queue in order, the first failure stops the queue and fails the manager), whose writes are
 * a whole-session insert first and then one line per append at the seq this sink expects.
 */
import {
  type QueuedWrite,
  queuedSink,
  type SessionSink,
  type StoredSessionContent,
} from "@pi-sessions/core";
import { sessionLines } from "@pi-sessions/core/internal";
import type pg from "pg";
import { foldLines, LineFold } from "./info-fold.js";
import { recordRow, splitFile } from "./lines.js";
import { appendRow, insertSession, type Lease, type RetryPolicy, withRetry } from "./writes.js";

/** What one session's sink writes with. */
export interface SinkContext {
  readonly pool: pg.Pool;
  /** The quoted schema. */
  readonly s: string;
  readonly id: string;
  readonly location: string;
  readonly retry: RetryPolicy;
  /** The lease its writes carry (absent: no lease, the seq alone decides). */
  readonly lease: Lease | undefined;
  /** The seq of the session's next line, when it exists already (opened, not created). */
  readonly nextSeq?: number;
  /**
   * The listing fold's state after the opened session's lines (`null`: none saved for them,
   * so this sink's appends save none either and the listing folds the session anew).
   */
  readonly infoState?: Buffer | null;
  /** Gives the lease up once `after` settles (the queue drained); called at once, so tracked. */
  readonly releaseLease: (lease: Lease, after: Promise<void>) => void;
}

/** The queued sink of a session; `createWith` queues a session's first, whole write. */
export function postgresSink(c: SinkContext): SessionSink & {
  createWith(content: StoredSessionContent): void;
} {
  let next = c.nextSeq ?? 0;
  // The listing fold after every line written so far (none: the session's state is unknown).
  let fold = c.infoState ? LineFold.resume(c.infoState) : undefined;
  const write = async (w: QueuedWrite): Promise<void> => {
    if (w.kind === "append") {
      const row = recordRow(next, w.entry);
      const texts = fold?.line(row.line as string) ?? null;
      const info = { texts, state: fold?.save() ?? null };
      await withRetry(c.retry, (retrying) =>
        appendRow(c.pool, c.s, c.id, row, c.lease, c.location, retrying, info),
      );
      next++;
      return;
    }
    const { header, entries } = w.content;
    // The lines the file store would write for the whole session, then split as a file is.
    const { rows } = splitFile(Buffer.from(sessionLines(header, entries).join(""), "utf8"));
    fold = new LineFold();
    const folded = foldLines(rows, fold);
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
    await withRetry(c.retry, (retrying) =>
      insertSession(c.pool, c.s, session, c.lease, c.location, retrying),
    );
    next = rows.length;
  };
  const inner = queuedSink({ location: c.location, write, written: c.nextSeq !== undefined });
  let released = false;
  const release = (): void => {
    if (released || !c.lease) return;
    released = true;
    const lease = c.lease;
    // After the queued writes: giving the lease up first would let a writer in between them.
    c.releaseLease(
      lease,
      inner.flush().catch(() => {}),
    );
  };
  // The queued sink's own getters and methods, with release and close giving the lease up.
  return Object.assign(Object.create(inner) as typeof inner, { release, close: release });
}
