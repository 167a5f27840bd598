/**
 * Settled rows: when a file's stat alone vouches for its row, so a listing answers without
 * opening it.
 *
 * The rule is git's "racy clean" one: once a file was found to match its row at a moment when
 * its ctime was already `settleMs` old, its finished answer is stored with that ctime; while a
 * later stat gives the same dev, inode, size, mtime and ctime, nothing has written to the file
 * since (the kernel sets the ctime of every write, truncate, rename onto it and `utimes`, and
 * no call sets it back), so the stored answer is the file's. The margin is what makes this
 * sound: a write in the same timestamp granule as the previous change could leave all five
 * unchanged, and the margin (far above the coarsest granule, 2 s on FAT) puts every later
 * write in a later granule. A file changed more recently than that is checked by its hash.
 */

import type { Stats } from "node:fs";
import { indexRules } from "./index-rules.js";
import { type Database, inTransaction } from "./sqlite.js";
import type { FileRow, ListedRow, Settle, Statements } from "./statements.js";
import { decodeAnswer, type FileAnswer } from "./stored-answer.js";

/** How old a file's last change must be before its stat alone vouches for its row (ms). */
export const DEFAULT_SETTLE_MS = 5000;

/** The parts of a stat the stored answer is tied to. */
export interface FullStamp {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

/** What of a row its stat is compared with. */
export type RowStamp = Pick<
  ListedRow,
  "settled" | "dev" | "ino" | "size" | "mtime_ms" | "ctime_ms" | "rules"
>;

/**
 * Whether `stamp` (a stat of the file) vouches for the settled row: the rule above, for a row
 * made under the rules this code runs (SPEC §14 F2).
 */
export function vouchedByStat(row: RowStamp, stamp: FullStamp): boolean {
  return (
    row.settled === 1 &&
    row.rules === indexRules() &&
    sameStamp(stamp, row.dev, row.ino, row.size, row.mtime_ms, row.ctime_ms)
  );
}

/**
 * Whether a stat gives a row's stamp, field by field: for a settled row made under the rules
 * this code runs, the rest of {@link vouchedByStat}'s rule.
 */
export function sameStamp(
  stamp: FullStamp,
  dev: number,
  ino: number,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
): boolean {
  return (
    ctimeMs === stamp.ctimeMs &&
    mtimeMs === stamp.mtimeMs &&
    size === stamp.size &&
    ino === stamp.ino &&
    dev === stamp.dev
  );
}

/**
 * The row's stored answer when `stamp` (a stat of the file) vouches for it; `undefined` when
 * it does not, or when the text is wanted (`text` given) but the row has none or the file has
 * a torn tail, whose text is not stored. `text` reads the row's joined text, called when the
 * info's `allMessagesText` is first read (see `lazy-text.ts`).
 */
export function trustedAnswer(
  row: ListedRow,
  stamp: FullStamp,
  path: string,
  withShape: boolean,
  text: (() => string) | undefined,
): FileAnswer | null | undefined {
  if (row.answer === null || !vouchedByStat(row, stamp)) return undefined;
  // A row with records keeps the text of its committed lines (not of a torn tail); a listing's
  // row with text keeps its answer's; a listing's row alone keeps none.
  if (text !== undefined) {
    if (row.filled === 0 || (row.filled === 2 && row.committed !== row.size)) return undefined;
  }
  return decodeAnswer(row.answer, path, text ?? "", withShape);
}

/**
 * The settle to write for a row the file was just found to match, when the file had not
 * changed for `settleMs` before `checkedAt` (taken before the stat: any change after it gets a
 * later ctime); none when a clock behind the file's ctime, or when the row is settled already.
 */
export function settleOf(
  row: FileRow,
  stats: Stats,
  checkedAt: number,
  settleMs: number,
): Settle | undefined {
  if (!(checkedAt - stats.ctimeMs > settleMs)) return undefined;
  if (row.settled === 1) return undefined;
  return {
    id: row.id,
    dev: stats.dev,
    ino: stats.ino,
    size: stats.size,
    mtime_ms: stats.mtimeMs,
    committed: row.committed,
    ctime_ms: stats.ctimeMs,
    rules: row.rules,
  };
}

/**
 * Marks the rows a listing found settled, in one transaction after it. Only ever an
 * optimisation (the next listing checks those files by hash again), so it never waits for
 * another process's write lock and gives up quietly on any trouble.
 */
export function settleRows(
  db: Database,
  st: Statements,
  settles: readonly Settle[],
  busyTimeoutMs: number,
): void {
  if (settles.length === 0) return;
  try {
    db.exec("PRAGMA busy_timeout = 0");
    inTransaction(db, () => {
      for (const settle of settles) st.settle.run(settle);
    });
  } catch {
    // Busy, read-only, full or damaged: the listing's answers are already right without it.
  } finally {
    try {
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
    } catch {
      // A broken connection is the next listing's to report.
    }
  }
}
