/**
 * Group commit: the appends of every session of a store, however many managers write them, go
 * to the server together, in one statement and one commit per round (`append-groups.ts`), each
 * group with its own checks and its own verdict. A round starts as soon as a connection is free
 * for it (at most `maxInFlight` at once), with whatever was submitted meanwhile, so one writer
 * alone waits for nothing, and many share their commits.
 *
 * A round that fails for a transient reason (a dropped connection, a restart) is tried again,
 * each group on its own budget (`RetryPolicy`); a retried group that finds its own first line
 * at its seq committed before (only its answer was lost). A round that fails for another
 * reason is split: each group is tried alone, so the one that cannot be written fails alone.
 */

import { asError } from "@pi-sessions/core/internal";
import type pg from "pg";
import { type AppendGroup, commitGroups } from "./append-groups.js";
import { isTransient } from "./transaction.js";
import type { RetryPolicy } from "./writes.js";

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
        void this.run(round).finally(() => {
          this.inFlight--;
          if (this.waiting.length > 0) this.schedule();
        });
      }
    });
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

  /** Runs one round and settles or requeues each of its groups. */
  private async run(round: Waiting[]): Promise<void> {
    try {
      const verdicts = await commitGroups(this.pool, this.s, round);
      round.forEach((w, i) => {
        const verdict = verdicts[i];
        if (verdict) w.reject(verdict);
        else w.resolve();
      });
    } catch (error) {
      const failure = asError(error);
      for (const w of round) this.failed(w, failure, round.length);
    }
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
