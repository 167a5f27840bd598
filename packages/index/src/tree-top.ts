/**
 * The top of a session's tree, what `tree --depth N` shows: the entries at most N + 1 levels
 * below the roots (the last level only so that each shown entry has its children), how many
 * entries lie below each of them, and which of them are on a leaf's path. The levels and
 * counts come from the parent's line each row keeps: one scan of an integer or three per
 * row (for a large file, three typed arrays of its column snapshot: `snapshot-links.ts`), with
 * no record read and no id compared, instead of an entry for every row. The tree
 * itself (child order, labels) is still core's, built over these entries (`core-tree-top.ts`),
 * each the real record read when something reads more than its tree fields (`row-entries.ts`);
 * in a regular file every parent comes before its children, so the links have no cycle to cut.
 */

import type { SessionEntry } from "@pi-sessions/core";
import { rowEntries } from "./row-entries.js";
import {
  type LineReader,
  type QueryRow,
  type RawRow,
  StaleLineError,
  TREE_COLUMNS,
  toRow,
} from "./session-rows.js";
import { type LinkColumns, type LinkRow, snapshotLinks } from "./snapshot-links.js";
import { type Database, inReadTransaction, prepareArrays, type Statement } from "./sqlite.js";

/** A file's rowid span. */
interface Span {
  readonly first: number;
  readonly last: number;
}

/**
 * Twice the parent's line (0 for a root, -1 for a parent no row before it has the id of),
 * plus 1 for a label: one integer per row, so the labels need no scan of their own.
 */
const LINK = `ifnull(e.parent_line, iif(e.parent_id IS NULL, 0, -1)) * 2
  + iif(e.type = 'label', 1, 0)`;

/** The statements of one connection's tree tops. */
interface TopStatements {
  readonly links: Statement<[number, number, number], LinkRow>;
  readonly parentLines: Statement<[number, number, number], [number]>;
  readonly some: Statement<[string], RawRow>;
  readonly one: Statement<[number], RawRow>;
  readonly lineOf: Statement<[number, string], [number]>;
}

const prepared = new WeakMap<Database, TopStatements>();

function statementsOf(db: Database): TopStatements {
  let st = prepared.get(db);
  if (st === undefined) {
    const range = "FROM entries e WHERE e.rowid BETWEEN ? AND ? AND +e.file_id = ?";
    st = {
      links: prepareArrays<[number, number, number], LinkRow>(
        db,
        `SELECT e.rowid, e.line, ${LINK} ${range} ORDER BY e.rowid`,
      ),
      parentLines: prepareArrays<[number, number, number], [number]>(
        db,
        `SELECT ${LINK} ${range} ORDER BY e.rowid`,
      ),
      some: prepareArrays<[string], RawRow>(
        db,
        `SELECT ${TREE_COLUMNS} FROM entries e
           WHERE e.rowid IN (SELECT value FROM json_each(?)) ORDER BY e.rowid`,
      ),
      one: prepareArrays<[number], RawRow>(
        db,
        `SELECT ${TREE_COLUMNS} FROM entries e WHERE e.rowid = ?`,
      ),
      lineOf: prepareArrays<[number, string], [number]>(
        db,
        "SELECT line FROM entries WHERE file_id = ? AND id = ?",
      ),
    };
    prepared.set(db, st);
  }
  return st;
}

/** The rows of a tree's top: see the module comment. */
export interface TopRows {
  /**
   * The entries at most `depth + 1` levels below the roots (a root is level 1), in file order:
   * core's entries over the rows, each read from its line when more than its tree fields is read.
   */
  readonly entries: readonly SessionEntry[];
  /** Every label record of the file, in file order: a label may name any entry. */
  readonly labels: readonly SessionEntry[];
  /** How many entries lie below `entries[position]` in the tree. */
  below(position: number): number;
  /** The ids of `entries` on the path root → `leafId` (none for `null` or an unknown id). */
  pathIds(leafId: string | null): Set<string>;
  /** The row of `entries[position]` (to read its record). */
  rowAt(position: number): QueryRow;
}

/** The links of a file's rows, checked to be those of a regular file. */
interface Links {
  /** By row position: rowid, line, level (1 for a root), entries below, parent's position. */
  readonly rowids: Float64Array;
  readonly lines: Int32Array;
  readonly levels: Int32Array;
  readonly sizes: Int32Array;
  /** -1 for a root. */
  readonly parents: Int32Array;
  /** The positions of the label rows. */
  readonly labels: number[];
}

/**
 * Rowid, line and {@link LINK} of each row, in file order. A large file's come from its column
 * snapshot (`snapshot-links.ts`). A file indexed in one go (or caught up while no other file
 * was) has consecutive rowids and, without blank lines, consecutive lines: then only the links
 * are read, one integer per row.
 */
function linkColumns(
  db: Database,
  st: TopStatements,
  fileId: number,
  span: Span,
  count: number,
): LinkColumns {
  const tail = (after: number) => st.links.all(after + 1, span.last, fileId);
  const stored = span.last >= span.first ? snapshotLinks(db, fileId, span, count, tail) : undefined;
  if (stored !== undefined) return stored;
  const first = span.last - span.first + 1 === count ? st.one.get(span.first) : undefined;
  const last = first === undefined ? undefined : st.one.get(span.last);
  if (first !== undefined && last !== undefined && last[1] - first[1] === count - 1) {
    const parents = st.parentLines.all(span.first, span.last, fileId);
    return {
      n: parents.length,
      rowid: (i: number) => span.first + i,
      line: (i: number) => first[1] + i,
      link: (i: number) => (parents[i] as [number])[0],
    };
  }
  const rows = st.links.all(span.first, span.last, fileId);
  return {
    n: rows.length,
    rowid: (i: number) => (rows[i] as LinkRow)[0],
    line: (i: number) => (rows[i] as LinkRow)[1],
    link: (i: number) => (rows[i] as LinkRow)[2],
  };
}

/** Levels and subtree sizes from one scan; a row whose parent is not before it is stale. */
function linksOf(
  db: Database,
  st: TopStatements,
  fileId: number,
  span: Span,
  count: number,
  path: string,
): Links {
  const columns = linkColumns(db, st, fileId, span, count);
  const n = columns.n;
  if (n !== count) throw new StaleLineError(path, 0);
  const positionOfLine = new Int32Array(n === 0 ? 1 : columns.line(n - 1) + 1).fill(-1);
  const links: Links = {
    rowids: new Float64Array(n),
    lines: new Int32Array(n),
    levels: new Int32Array(n),
    sizes: new Int32Array(n),
    parents: new Int32Array(n),
    labels: [],
  };
  let before = 0;
  for (let i = 0; i < n; i++) {
    const line = columns.line(i);
    const link = columns.link(i);
    const parentLine = Math.floor(link / 2);
    if (line <= before || link < 0 || parentLine >= line) throw new StaleLineError(path, 0);
    if (link % 2 === 1) links.labels.push(i);
    before = line;
    positionOfLine[line] = i;
    const parent = parentLine === 0 ? -1 : (positionOfLine[parentLine] as number);
    if (parentLine !== 0 && parent < 0) throw new StaleLineError(path, 0);
    links.rowids[i] = columns.rowid(i);
    links.lines[i] = line;
    links.parents[i] = parent;
    links.levels[i] = parent < 0 ? 1 : (links.levels[parent] as number) + 1;
  }
  // Children come after their parent, so one pass from the end sums every subtree.
  for (let i = n - 1; i >= 0; i--) {
    const parent = links.parents[i] as number;
    if (parent >= 0) {
      links.sizes[parent] = (links.sizes[parent] as number) + (links.sizes[i] as number) + 1;
    }
  }
  return links;
}

/** The position of `line` among the rows' lines (ascending), or -1. */
function positionOfLine(lines: Int32Array, line: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = lines[mid] as number;
    if (at === line) return mid;
    if (at < line) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The top `depth` levels of the file's tree, with one more level under them; the label rows
 * are read through `reader` now, the others' records when something reads them.
 */
export function treeTop(
  db: Database,
  fileId: number,
  span: Span | null,
  count: number,
  depth: number,
  reader: LineReader,
  path: string,
): TopRows {
  const st = statementsOf(db);
  const range = span ?? { first: 1, last: 0 };
  // The links and the rows they name read in one transaction (one state of the index, and a
  // snapshot written in it only over the rows it was made of: `ReadLayout.save`).
  const { links, shown, rows, labelRows } = inReadTransaction(db, () => {
    const links = linksOf(db, st, fileId, range, count, path);
    const shown: number[] = [];
    for (let i = 0; i < links.levels.length; i++) {
      if ((links.levels[i] as number) <= depth + 1) shown.push(i);
    }
    // One statement for all the rows wanted: a lookup per row inside SQLite, not per call.
    const rowsAt = (positions: readonly number[]) => {
      const rowids = positions.map((i) => links.rowids[i] as number);
      const found = st.some.all(JSON.stringify(rowids));
      if (found.length !== rowids.length) throw new StaleLineError(path, 0);
      return found.map(toRow);
    };
    return { links, shown, rows: rowsAt(shown), labelRows: rowsAt(links.labels) };
  });
  const records = new Map<number, SessionEntry>();
  for (const [row, record] of reader.records(labelRows)) records.set(row.rowid, record);
  const entries = rowEntries(rows, reader, records);
  const positionOf = new Map(shown.map((i, at) => [i, at]));
  return {
    entries,
    labels: labelRows.map((r) => records.get(r.rowid) as SessionEntry),
    below: (position) => links.sizes[shown[position] as number] as number,
    pathIds: (leafId) => {
      const ids = new Set<string>();
      const line = leafId === null ? undefined : st.lineOf.get(fileId, leafId)?.[0];
      let at = line == null ? -1 : positionOfLine(links.lines, line);
      for (; at >= 0; at = links.parents[at] as number) {
        const position = positionOf.get(at);
        if (position !== undefined) ids.add(rows[position]?.id as string);
      }
      return ids;
    },
    rowAt: (position) => rows[position] as QueryRow,
  };
}
