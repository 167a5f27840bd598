/**
 * A tree's links (`tree-top.ts`) from the file's column snapshot (`column-snapshot.ts`): each
 * row's line, parent and whether it is a label, read as three typed arrays from one blob
 * instead of one scan of the file's rows (the rows of a large session are many pages of the
 * table; the snapshot is a few bytes a row). The snapshot is derived from the rows and names
 * the last row it covers; it is used only when that row still holds what the snapshot says
 * and the file's rows before it have consecutive rowids (so a position is a rowid), and rows a
 * catch-up added after it are read from the table. A large file without a usable snapshot (or
 * with many rows after it, as an open finds too) gets one written, best effort and without
 * waiting for another process's lock.
 */

import {
  RESNAPSHOT_ROWS,
  readLayoutRows,
  snapshotEndMatches,
  storedSnapshot,
} from "./column-snapshot.js";
import { snapshotViews } from "./snapshot-codec.js";
import { type Database, inReadTransaction, withoutWaiting } from "./sqlite.js";

/** Each row of a file, by position in file order: its rowid, line, and link (see `tree-top.ts`). */
export interface LinkColumns {
  readonly n: number;
  rowid(i: number): number;
  line(i: number): number;
  link(i: number): number;
}

/** Rowid, line and link of a row after the snapshot. */
export type LinkRow = [number, number, number];

/** A file's rowid span. */
interface Span {
  readonly first: number;
  readonly last: number;
}

/** The environment variable that sets {@link snapshotFromRows} (a whole number of rows). */
export const TREE_SNAPSHOT_FROM_ROWS_ENV = "PI_SESSIONS_TREE_SNAPSHOT_FROM_ROWS";

/**
 * From how many rows a tree's links are read from a snapshot ({@link TREE_SNAPSHOT_FROM_ROWS_ENV},
 * for tests, else 4096): below, the scan of the rows costs well under the few milliseconds a
 * snapshot's write would, and none is written for a tree.
 */
function snapshotFromRows(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[TREE_SNAPSHOT_FROM_ROWS_ENV]);
  return env[TREE_SNAPSHOT_FROM_ROWS_ENV] !== undefined && Number.isSafeInteger(value) && value >= 0
    ? value
    : 4096;
}

/**
 * The links the snapshot holds, and how many rows came after it; undefined without a snapshot
 * of these rows, null for one whose rowids are not consecutive (the rows are scanned).
 */
function fromSnapshot(
  db: Database,
  fileId: number,
  span: Span,
  tail: (after: number) => readonly LinkRow[],
): { columns: LinkColumns; after: number } | undefined | null {
  const stored = storedSnapshot(db, fileId);
  if (stored === undefined) return undefined;
  const views = snapshotViews(stored.data);
  const n = views?.n ?? 0;
  if (views === undefined || n === 0 || n !== stored.rows) return undefined;
  const at = n - 1;
  const last = {
    line: views.lines[at] as number,
    offset: views.offsets[at] as number,
    id: views.idBytes.toString("utf8", views.idBytes.lastIndexOf(10) + 1),
  };
  if (!snapshotEndMatches(db, fileId, stored, last)) return undefined;
  if (stored.last_rowid - span.first + 1 !== n) return null;
  const { lines, parentAt, typeCode } = views;
  const label = views.typeTable.indexOf("label");
  const rest = stored.last_rowid < span.last ? tail(stored.last_rowid) : [];
  const columns: LinkColumns = {
    n: n + rest.length,
    rowid: (i) => (i < n ? span.first + i : (rest[i - n] as LinkRow)[0]),
    line: (i) => (i < n ? (lines[i] as number) : (rest[i - n] as LinkRow)[1]),
    link: (i) => {
      if (i >= n) return (rest[i - n] as LinkRow)[2];
      const parent = parentAt[i] as number;
      return (parent < 0 ? 0 : (lines[parent] as number)) * 2 + (typeCode[i] === label ? 1 : 0);
    },
  };
  return { columns, after: rest.length };
}

/**
 * The links of a file of `count` rows from its snapshot, writing one first when the file is
 * large and has none (or many rows after it); undefined when there is none to read (a small
 * file, an index that cannot be written now): the caller scans the rows. `tail` reads the rows
 * after a rowid.
 */
export function snapshotLinks(
  db: Database,
  fileId: number,
  span: Span,
  count: number,
  tail: (after: number) => readonly LinkRow[],
): LinkColumns | undefined {
  if (count < snapshotFromRows()) return undefined;
  const found = fromSnapshot(db, fileId, span, tail);
  if (found === null) return undefined;
  if (found !== undefined && found.after < RESNAPSHOT_ROWS) return found.columns;
  try {
    // Read and written in one transaction: see `ReadLayout.save`.
    withoutWaiting(db, () => inReadTransaction(db, () => readLayoutRows(db, fileId).save()));
  } catch {
    // Busy, read-only or full (the save itself gives up quietly): the rows are scanned.
    return found?.columns;
  }
  return fromSnapshot(db, fileId, span, tail)?.columns ?? found?.columns;
}
