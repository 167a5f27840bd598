/**
 * The index seen through core's listing: core's `SessionInfoCache` is the hook its listing
 * functions ask for each file's info, so answering from the index there reuses everything
 * else of core's listing as it is (candidate files and their order, the cwd filter, progress
 * and partial snapshots, aborts, the final sort) and the results cannot drift from it.
 */

import type { SessionInfo } from "@pi-sessions/core";
import { type FileStamp, SessionInfoCache, type SessionShape } from "@pi-sessions/core/internal";
import type { Database } from "better-sqlite3";
import { FileSync, type SyncKind } from "./file-sync.js";
import type { FileRow, Statements } from "./statements.js";
import { WriteBatch } from "./write-batch.js";

/** How many files a sync found in each state. */
export type SyncCounts = Record<SyncKind, number>;

/** Fresh zero counts. */
export function zeroCounts(): SyncCounts {
  return { unchanged: 0, "caught-up": 0, indexed: 0, gone: 0 };
}

/** A cache that is the index: every lookup syncs the file's rows and answers from them. */
export class IndexInfoCache extends SessionInfoCache {
  /** Paths looked up during this listing (the rest of a listed directory is gone). */
  readonly seen = new Set<string>();
  readonly counts = zeroCounts();

  /** The listing's writes, committed in a few transactions (see {@link WriteBatch}). */
  readonly batch: WriteBatch;

  /** The rows under the listed scope, read in one query at the first lookup. */
  private rows: Map<string, FileRow> | undefined;

  constructor(
    db: Database,
    private readonly st: Statements,
    private readonly withText: boolean,
    /** Every path the listing can meet starts with this (a directory and `/`, or the root's). */
    private readonly prefix: string,
  ) {
    super(0);
    this.batch = new WriteBatch(db);
  }

  override get(path: string, _stamp?: FileStamp, withShape = false): SessionInfo | null {
    this.seen.add(path);
    this.rows ??= new Map(
      this.st.filesBetween.all(this.prefix, `${this.prefix}\u{10ffff}`).map((r) => [r.path, r]),
    );
    const sync = new FileSync(this.st, path, this.batch);
    const answer = sync.run(this.withText, withShape, this.rows.get(path) ?? null);
    this.batch.maybeCommit();
    this.counts[sync.kind]++;
    if (answer === null) return null;
    if (!withShape) return answer.info;
    return Object.assign(answer.info, { shape: answer.shape as SessionShape });
  }

  /** Never called: {@link get} always answers. */
  override set(): void {}
}
