/**
 * Group commit: the appends of every session of a store, however many managers write them, go
 * to the server together, in one statement and one commit per round (`append-groups.ts`), each
 * group with its own checks and its own verdict. A round starts as soon as a connection is free
 * for it (at most `maxInFlight` at once), with whatever was submitted meanwhile, so one writer
 * alone waits for nothing, and many share their commits.
 *
 * The committer keeps the connection of its last round (one at most), and the next round goes
 * on it: a lone writer's every statement would otherwise check a connection out of the pool
 * and give it back (a tick, timers and events, measured at about 6 µs of CPU per statement),
 * and a lone writer waits for each. It is kept only while the pool has room for another
 * connection and nobody waits for one (a pool of one connection is never held), given back
 * within `SWEEP_MS` once a caller waits for the pool (it filled up meanwhile), and after a
 * second without a round, so a quiet store holds nothing of the pool.
 *
 * A round that fails for a transient reason (a dropped connection, a restart) is tried again,
 * each group on its own budget (`RetryPolicy`); a retried group that finds its own first line
 * at its seq committed before (only its answer was lost). A round that fails for another
 * reason is split: each group is tried alone, so the one that cannot be written fails alone.
 */

import { asError } from "@pi-sessions/core/internal";
import type pg from "pg";
import { type AppendGroup, commitGroups } from "./append-groups.js";
import { hasEnded, hear, isTransient } from "./transaction.js";
import type { RetryPolicy } from "./writes.js";

/**
 * How often the kept connection is looked at: given back as soon as the pool has a caller
 * waiting (the pool filled up after it was kept), so nobody waits on it longer than this.
 */
const SWEEP_MS = 50;
/** Sweeps without a round before the kept connection goes back to the pool (about 1 s). */
const KEPT_IDLE_SWEEPS = 20;

/** How rounds are formed. */
export interface GroupCommitOptions {
  /** Rounds on the wire at once, each on its own connection (default 4). */
  readonly maxInFlight: number;
  /** Rows in one round at most (default 1000); a group is never split. */
  readonly maxRows: number;
}

/** A submitted group waiting for its round. */
interface Waiting {
  readonly group: AppendGroup;
  retrying: boolean;
  tries: number;
  /** Tried alone: a round with it failed for a reason that is not transient. */
  alone: boolean;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** The store's group committer: `submit` a session's lines, resolved once they are committed. */
export class GroupCommitter {
  private readonly waiting: Waiting[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** The connection of the last round, idle (see the module notes). */
  private kept: pg.PoolClient | undefined;
  /** Sweeps since a round last took the kept connection. */
  private idleSweeps = 0;
  /** The sweep of the kept connection (see `SWEEP_MS`), running while one is kept. */
  private sweep: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly s: string,
    private readonly retry: RetryPolicy,
    private readonly options: GroupCommitOptions = { maxInFlight: 4, maxRows: 1000 },
  ) {}

  /** Queues `group` for the next round; resolves once committed, rejects with its verdict. */
  submit(group: AppendGroup): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ group, retrying: false, tries: 0, alone: false, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Starts rounds once the promise callbacks now running are done (nothing on the wire), or
   * on `setImmediate`, after the loop's current I/O phase (rounds out, or `afterTurn`), so that
   * the groups submitted meanwhile join them.
   */
  private schedule(afterTurn = false): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // With nothing on the wire, a round starts on `nextTick`, which runs once the promise
    // callbacks that follow the current callback (a manager's append, an answer, a timer) are
    // done: every group they submit joins it, and a lone writer's append does not wait for
    // the loop's next phase (measured: submit to round 6-14 µs, 2-5 after). Groups submitted
    // from separate callbacks of one phase (two timers, two sockets) do not meet that way: the
    // first goes alone, the others together in the next round. With rounds out, and for
    // retries (each group's timer is its own callback), the round waits for `setImmediate`,
    // after the whole phase, so the answers of several rounds, or the retries of one, go in
    // one round.
    const start = this.inFlight === 0 && !afterTurn ? process.nextTick : setImmediate;
    start(() => {
      this.scheduled = false;
      while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
        // A round takes every group waiting (up to `maxRows`), not a share of them per free
        // connection: each round costs both sides about as much again as its rows (protocol,
        // plan, commit), so under load the rounds grow instead of multiplying. More rounds in
        // flight only come from groups that arrive while others are out, as with one writer
        // per session; they keep a slow round (a lock wait) from holding every session up.
        // Measured (32 writers, interleaved): the CPU per append of one round at a time, where
        // sharing the groups among 2 or 4 connections cost 15-40% more on both sides.
        const round = this.take();
        this.inFlight++;
        void this.run(round);
      }
    });
  }

  /**
   * Gives the kept connection back to the pool (the store closes); a round still on the wire
   * gives its own back when it ends, and later rounds check theirs out and give them back.
   */
  close(): void {
    this.closed = true;
    this.letKeptGo();
  }

  /** The next round: the waiting groups in order, one per session, up to `maxRows` rows. */
  private take(): Waiting[] {
    const round: Waiting[] = [];
    const sessions = new Set<string>();
    let rows = 0;
    for (let i = 0; i < this.waiting.length; i++) {
      const w = this.waiting[i] as Waiting;
      if (w.alone && round.length > 0) continue;
      if (sessions.has(w.group.id)) continue;
      if (round.length > 0 && rows + w.group.rows.length > this.options.maxRows) break;
      round.push(w);
      sessions.add(w.group.id);
      rows += w.group.rows.length;
      this.waiting.splice(i--, 1);
      if (w.alone) break;
    }
    return round.sort((a, b) => (a.group.id < b.group.id ? -1 : a.group.id > b.group.id ? 1 : 0));
  }

  /** Runs one round and settles or requeues each of its groups; never rejects. */
  private async run(round: Waiting[]): Promise<void> {
    let client: pg.PoolClient | undefined;
    let broken = false;
    try {
      client = this.takeKept() ?? hear(await this.pool.connect());
      const verdicts = await commitGroups(client, this.s, round);
      round.forEach((w, i) => {
        const verdict = verdicts[i];
        if (verdict) w.reject(verdict);
        else w.resolve();
      });
    } catch (error) {
      const failure = asError(error);
      broken = isTransient(failure);
      for (const w of round) this.failed(w, failure, round.length);
    } finally {
      // Given back before the next round is scheduled, so that round can take it.
      if (client) this.giveBack(client, broken);
      this.inFlight--;
      if (this.waiting.length > 0) this.schedule();
    }
  }

  /** The kept connection, unless it ended while it was idle (the pool then drops it). */
  private takeKept(): pg.PoolClient | undefined {
    const client = this.kept;
    this.kept = undefined;
    if (client && hasEnded(client)) {
      // A round on it would fail, and spend a try of each of its groups.
      client.release(true);
      return undefined;
    }
    return client;
  }

  /**
   * Keeps a round's connection for the next round, or gives it back: at most one is kept, none
   * once the committer is closed or while the pool is full or has callers waiting (a held
   * connection would keep them waiting, and a pool of one would wait for ever), and one whose
   * round failed for a transient reason (it may have ended; the error event may not have come
   * yet) is dropped by the pool.
   */
  private giveBack(client: pg.PoolClient, broken: boolean): void {
    if (broken || hasEnded(client)) {
      client.release(true);
      return;
    }
    const pool = this.pool;
    const full = pool.totalCount >= (pool.options.max ?? 10) || pool.waitingCount > 0;
    if (this.kept !== undefined || this.closed || full) {
      client.release();
      return;
    }
    this.kept = client;
    this.idleSweeps = 0;
    // One timer per busy spell, not per round: a round that reads a clock costs a lone writer.
    this.sweep ??= setInterval(() => this.sweepKept(), SWEEP_MS).unref();
  }

  /** Gives the kept connection back once the pool has a caller waiting, or after an idle spell. */
  private sweepKept(): void {
    this.idleSweeps++;
    if (this.pool.waitingCount > 0 || this.idleSweeps >= KEPT_IDLE_SWEEPS) this.letKeptGo();
  }

  /** Gives the kept connection back to the pool, and stops the sweep. */
  private letKeptGo(): void {
    this.kept?.release();
    this.kept = undefined;
    clearInterval(this.sweep);
    this.sweep = undefined;
  }

  /** A group whose round failed: tried again (later, or alone), or failed for good. */
  private failed(w: Waiting, error: Error, roundSize: number): void {
    if (isTransient(error)) {
      if (w.tries >= this.retry.retries) {
        w.reject(error);
        return;
      }
      const delay = this.retry.delayMs * 2 ** w.tries;
      w.tries++;
      w.retrying = true;
      setTimeout(() => {
        this.waiting.push(w);
        this.schedule(true);
      }, delay);
      return;
    }
    if (roundSize === 1) {
      w.reject(error);
      return;
    }
    // Not this group's fault, maybe: it goes alone, and only the culprit fails.
    w.alone = true;
    this.waiting.unshift(w);
    this.schedule();
  }
}
