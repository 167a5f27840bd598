/**
 * Brings one session file's rows up to date and answers its `SessionInfo` (and shape) as core's
 * listing would from the file itself. The rule (SPEC §14 F1): a row answers for its file only
 * while the file has the row's device, inode, size, mtime and ctime and its last indexed line
 * is unchanged; a file that grew (same device and inode, last indexed line unchanged) is read
 * from that line on; any other change (a shrink, another inode, a changed mtime or ctime
 * without growth: a rewrite in place, a `touch`) indexes it again from the start, as does a row
 * made under other rules (SPEC §14 F2). A settled row's stat alone can vouch for it too
 * (`settled.ts`); a file found to match its row while long unchanged is settled here. Files
 * are only ever opened for reading, and only when they are regular files (`open-file.ts`).
 */

import { readSync, type Stats } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { DEPTH, type Depth, FileIndexer, finishAnswer, hashLine } from "./file-index.js";
import { resumeFolds } from "./fold-state.js";
import { indexRules } from "./index-rules.js";
import { withRegularFile } from "./open-file.js";
import { DEFAULT_SETTLE_MS, settleOf } from "./settled.js";
import type { FileRow, Settle, Statements } from "./statements.js";
import { type Answered, decodeAnswer, type FileAnswer } from "./stored-answer.js";
import type { WriteBatch } from "./write-batch.js";

export type { FileAnswer } from "./stored-answer.js";

/** What a sync did to the index, for progress reports and tests. */
export type SyncKind = "unchanged" | "caught-up" | "indexed" | "gone";

/** Where the last indexed line is read back for its hash (one buffer: the reads are sync). */
let scratch = Buffer.allocUnsafe(64 * 1024);

/** Whether the row's last indexed line is still in the open file, byte for byte. */
function lastLineIntact(fd: number, stats: Stats, row: FileRow): boolean {
  if (stats.size < row.committed) return false;
  if (row.last_hash === null) return true;
  const length = row.committed - row.last_start;
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, 2 * scratch.length));
  const n = readSync(fd, scratch, 0, length, row.last_start);
  return n === length && hashLine(scratch.subarray(0, length)).equals(row.last_hash);
}

/** Whether the row was made under this code's rules, for this very file (device and inode). */
function sameRulesAndFile(stats: Stats, row: FileRow): boolean {
  return row.rules === indexRules() && row.dev === stats.dev && row.ino === stats.ino;
}

/** Whether `row` describes the open file as it is now (SPEC §14 F1): nothing to do. */
function isFresh(fd: number, stats: Stats, row: FileRow): boolean {
  return (
    sameRulesAndFile(stats, row) &&
    row.size === stats.size &&
    row.mtime_ms === stats.mtimeMs &&
    row.ctime_ms === stats.ctimeMs &&
    lastLineIntact(fd, stats, row)
  );
}

/** Whether the file only grew since `row` (with its records) was written: read on from there. */
function onlyGrew(fd: number, stats: Stats, row: FileRow): boolean {
  return (
    row.filled === DEPTH.full &&
    sameRulesAndFile(stats, row) &&
    stats.size > row.size &&
    lastLineIntact(fd, stats, row)
  );
}

/**
 * How the open file stands to its row under the rule above, without writing: `fresh` (the row
 * describes it as it is now), `grown` (it has the row's records and only grew since: a sync
 * reads only what follows the last indexed line), or `changed` (a sync would index it anew).
 */
export function rowStanding(fd: number, stats: Stats, row: FileRow): "fresh" | "grown" | "changed" {
  if (isFresh(fd, stats, row)) return "fresh";
  return onlyGrew(fd, stats, row) ? "grown" : "changed";
}

/** Whether a fresh row answers what is asked: it holds at least `wanted`. */
function usable(fd: number, stats: Stats, row: FileRow, wanted: Depth): boolean {
  return row.filled >= wanted && isFresh(fd, stats, row);
}

/** What {@link FileSync.peek} found without writing: the row's answer if it is fresh. */
export type Peek =
  | { readonly state: "missing" | "stale" | "gone" }
  | {
      readonly state: "fresh";
      readonly answer: FileAnswer | null;
      readonly fileId: number;
      /** How much the row holds (`DEPTH`): without its text, the answer's text is `""`. */
      readonly filled: number;
    };

/** A sync of one file to at least `depth` (`DEPTH`; the text is added when a listing wants it). */
export class FileSync {
  kind: SyncKind = "unchanged";
  /** Set by {@link run} when the row may now answer by stat alone (written after the listing). */
  settle: Settle | undefined;
  private readonly indexer: FileIndexer;

  constructor(
    private readonly st: Statements,
    private readonly path: string,
    private readonly batch: WriteBatch,
    private readonly settleMs = DEFAULT_SETTLE_MS,
    private readonly depth: Depth = DEPTH.full,
  ) {
    this.indexer = new FileIndexer(st, path, batch);
  }

  /**
   * The file's answer after bringing its rows up to date; `null` when it is gone, not a regular
   * file, or not a session (its first record is not a valid header), as core's listing says.
   * `noRow`: the caller knows the index has no row for it.
   */
  run(withText: boolean, withShape: boolean, noRow = false): FileAnswer | null {
    // Taken before the stat: every change after this moment gets a later ctime.
    const checkedAt = Date.now();
    const wanted = Math.max(this.depth, withText ? DEPTH.text : DEPTH.listing) as Depth;
    return withRegularFile(
      this.path,
      () => this.gone(),
      (fd, stats) => {
        let row = noRow ? undefined : this.st.fileByPath.get(this.path);
        let answer: Answered | null | undefined;
        if (row === undefined || !usable(fd, stats, row, wanted)) {
          ({ row, answer } = this.batch.write(() => this.update(fd, stats, wanted)));
        }
        answer ??= this.answer(fd, stats, row, withText);
        this.settle = settleOf(row, stats, checkedAt, this.settleMs);
        if (answer === null) return null;
        const info = withText ? answer.info : { ...answer.info, allMessagesText: "" };
        return withShape ? { info, shape: answer.shape } : { info };
      },
    );
  }

  /**
   * The row's answer when it is fresh, without writing anything (for `verify`): the stored
   * answer (it is what listings give), beside the folds' when they can give one. A stored
   * answer that differs from the folds' comes with theirs as `disagreeing`.
   */
  peek(): Peek {
    return withRegularFile(
      this.path,
      (): Peek => ({ state: "gone" }),
      (fd, stats) => {
        const row = this.st.fileByPath.get(this.path);
        if (row === undefined) return { state: "missing" };
        if (!isFresh(fd, stats, row)) return { state: "stale" };
        const fresh = (answer: FileAnswer | null): Peek => ({
          state: "fresh",
          answer,
          fileId: row.id,
          filled: row.filled,
        });
        const text = row.filled === DEPTH.listing ? "" : this.textOf(row);
        const stored =
          row.answer === null ? undefined : decodeAnswer(row.answer, this.path, text, true);
        const folded = this.folded(fd, stats, row, text);
        if (folded === undefined) return fresh(stored ?? null);
        if (stored === undefined || isDeepStrictEqual(stored, folded)) return fresh(folded);
        if (stored === null) return fresh({ ...(folded as FileAnswer), disagreeing: null });
        return fresh({ ...stored, disagreeing: folded });
      },
    );
  }

  /** Forgets a file that is no longer there (or no longer a regular file). */
  private gone(): null {
    const row = this.st.fileByPath.get(this.path);
    if (row !== undefined) {
      this.st.deleteFile.run(row.id);
      this.kind = "gone";
    }
    return null;
  }

  /** Re-reads the row under the write lock (another process may have synced meanwhile). */
  private update(fd: number, stats: Stats, wanted: Depth) {
    const row = this.st.fileByPath.get(this.path);
    if (row !== undefined && usable(fd, stats, row, wanted)) {
      return { row, answer: undefined };
    }
    if (row !== undefined && onlyGrew(fd, stats, row)) {
      this.kind = "caught-up";
      return this.indexer.records(fd, stats, row);
    }
    this.kind = "indexed";
    // A row without records is written over (nothing of it is kept); one with them goes.
    const reuse = row !== undefined && row.filled !== DEPTH.full ? row.id : undefined;
    if (row !== undefined && reuse === undefined) this.st.deleteFile.run(row.id);
    // A row that held records keeps them; one that grew is read in full now, so its next
    // appends are caught up from their last line rather than read again from the start.
    const grew = row !== undefined && stats.size > row.size;
    const depth = row?.filled === DEPTH.full || grew ? DEPTH.full : wanted;
    return depth === DEPTH.full
      ? this.indexer.records(fd, stats, undefined, reuse)
      : this.indexer.listing(fd, stats, depth, reuse);
  }

  /** The joined text the row holds. */
  private textOf(row: FileRow): string {
    return this.st.textOf.get(row.id)?.all_text ?? "";
  }

  /**
   * A fresh row's answer: its stored one when that holds what is asked (a row with records
   * keeps the text of its committed lines, a listing's row the whole answer's), else its
   * folds' (`folded`); with the text when `withText`.
   */
  private answer(fd: number, stats: Stats, row: FileRow, withText: boolean): Answered | null {
    const wholeText = row.filled === DEPTH.text || row.committed === row.size;
    if (row.answer !== null && (!withText || wholeText)) {
      const text = withText ? this.textOf(row) : "";
      return decodeAnswer(row.answer, this.path, text, true) as Answered | null;
    }
    const folded = this.folded(fd, stats, row, withText ? this.textOf(row) : "");
    if (folded === undefined) throw new Error(`${this.path}: the index row has no answer`);
    return folded;
  }

  /**
   * The answer of the row's saved folds with the torn tail folded in; `undefined` when they
   * cannot give one: a row without its records cannot answer a resumed fold's questions about
   * earlier ids, so only a row without a torn tail, or with records, is folded on.
   */
  private folded(
    fd: number,
    stats: Stats,
    row: FileRow,
    text: string,
  ): Answered | null | undefined {
    if (row.stopped === 1) return null;
    if (row.filled !== DEPTH.full && row.committed !== stats.size) return undefined;
    const folds = resumeFolds(row.folds, text, this.indexer.storedIds(row.id, row.lines));
    if (folds === undefined) return undefined;
    return finishAnswer(fd, stats, this.path, row.committed, folds);
  }
}
