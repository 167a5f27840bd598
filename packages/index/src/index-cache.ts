/**
 * The index seen through core's listing: core's `SessionInfoCache` is the hook its listing
 * functions ask for each file's info, so answering from the index there reuses everything
 * else of core's listing as it is (candidate files and their order, the cwd filter, progress
 * and partial snapshots, aborts, the final sort) and the results cannot drift from it.
 */

import { statSync } from "node:fs";
import type { SessionInfo } from "@pi-sessions/core";
import { type FileStamp, SessionInfoCache, type SessionShape } from "@pi-sessions/core/internal";
import type { Depth } from "./file-index.js";
import { type FileAnswer, FileSync, type SyncKind } from "./file-sync.js";
import { ListingTexts } from "./lazy-text.js";
import { type FullStamp, trustedAnswer } from "./settled.js";
import type { Database } from "./sqlite.js";
import type { ListedRow, Settle, Statements } from "./statements.js";
import { WriteBatch } from "./write-batch.js";

/** How many files a sync found in each state. */
export type SyncCounts = Record<SyncKind, number>;

/** Fresh zero counts. */
export function zeroCounts(): SyncCounts {
  return { unchanged: 0, "caught-up": 0, indexed: 0, gone: 0 };
}

/** A cache that is the index: every lookup syncs the file's rows and answers from them. */
export class IndexInfoCache extends SessionInfoCache {
  readonly counts = zeroCounts();
  /** Of the unchanged files, how many their stat alone vouched for (none was opened). */
  statOnly = 0;
  /** How many files the listing looked up (sessions or not). */
  lookups = 0;
  /** Rows found settled during the listing, written after it (see {@link settleRows}). */
  readonly settles: Settle[] = [];

  /** The listing's writes, committed in a few transactions (see {@link WriteBatch}). */
  readonly batch: WriteBatch;

  /** The texts of the answers its stat vouched for, read when read (see `lazy-text.ts`). */
  private readonly texts: ListingTexts;

  /**
   * The rows under the listed scope, read in one query at the first lookup; each leaves the map
   * when its file is looked up, so what stays once the listing is over is the files it did not
   * meet (gone, or beside the scope).
   */
  rows: Map<string, ListedRow> | undefined;

  constructor(
    db: Database,
    private readonly st: Statements,
    private readonly withText: boolean,
    /** Every path the listing can meet starts with this; `null`: no rows read up front. */
    private readonly prefix: string | null,
    /** How old a file's last change must be before its stat alone vouches for its row. */
    private readonly settleMs: number,
    /** How much a file's row is to hold after its lookup (`DEPTH`). */
    private readonly depth: Depth,
  ) {
    super(0);
    this.batch = new WriteBatch(db);
    this.texts = new ListingTexts(st, prefix);
  }

  override get(path: string, stamp?: FileStamp, withShape = false): SessionInfo | null {
    this.lookups++;
    const prefix = this.prefix;
    this.rows ??= new Map(
      prefix === null
        ? []
        : this.st.filesBetween.all(prefix, `${prefix}\u{10ffff}`).map((r) => [r.path, r]),
    );
    const row = this.rows.get(path);
    if (row !== undefined) this.rows.delete(path);
    let answer = row === undefined ? undefined : this.byStat(row, path, stamp, withShape);
    if (answer !== undefined) {
      this.statOnly++;
      this.counts.unchanged++;
    } else {
      const sync = new FileSync(this.st, path, this.batch, this.settleMs, this.depth);
      // No row where the up-front read looked: none to look up again; a row: read in full,
      // with what only a sync needs.
      const none = row === undefined && prefix !== null && path.startsWith(prefix);
      answer = sync.run(this.withText, withShape, none);
      this.batch.maybeCommit();
      this.counts[sync.kind]++;
      if (sync.settle !== undefined) this.settles.push(sync.settle);
    }
    if (answer === null) return null;
    if (!withShape) return answer.info;
    return Object.assign(answer.info, { shape: answer.shape as SessionShape });
  }

  /**
   * The row's stored answer when the file's stat vouches for it: the listing's own stat when it
   * has every field needed (`listAll()` stats each file to order them), else one taken here.
   */
  private byStat(
    row: ListedRow,
    path: string,
    stamp: FileStamp | undefined,
    withShape: boolean,
  ): FileAnswer | null | undefined {
    if (row.settled !== 1 || row.filled < this.depth) return undefined;
    let now: FullStamp | undefined;
    if (stamp?.dev !== undefined && stamp.ctimeMs !== undefined) {
      now = stamp as FullStamp;
    } else {
      try {
        now = statSync(path, { throwIfNoEntry: false });
      } catch {
        now = undefined; // let the full path find out and say what the file is
      }
    }
    if (now === undefined) return undefined;
    // Read when the info's text is: pi's picker reads it for a search only (lazy-text.ts).
    const text = this.withText ? this.texts.loader(row, path) : undefined;
    return trustedAnswer(row, now, path, withShape, text);
  }

  /** Never called: {@link get} always answers. */
  override set(): void {}
}
