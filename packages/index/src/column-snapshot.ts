/**
 * A file's rows as one compact value: what opening a giant session needs of them (each entry's
 * line, byte span, id, parent and type), so pi's launcher reads a million entries' layout in
 * one blob instead of a million rows (reading them one by one costs about as much as checking
 * the file's bytes). The snapshot is derived from the rows, never from the file: it is stored
 * in `file_columns`, which goes with its `files` row (every change that drops a file's rows
 * drops the row), and it names the last row it covers, so rows a catch-up added since are read
 * after it. Ids go joined by `\n`, parents as the position of their entry (a regular file has
 * no parent that is not an earlier entry), types and roles as codes into small tables.
 */

import { decodeSnapshot, encodeSnapshot, type LayoutRows } from "./snapshot-codec.js";
import type { Database, Statement } from "./sqlite.js";
import { prepare, prepareArrays } from "./sqlite.js";

/** Raw row: rowid, line, offset, length, id, parent_id, type, role. */
type RawRow = [number, number, number, number, string, string | null, string | null, string | null];

/** The statements of one connection. */
interface SnapshotStatements {
  readonly span: Statement<[number], [number | null]>;
  readonly rowsAfter: Statement<[number, number, number], RawRow>;
  readonly endAt: Statement<[number], [number, number, number, string | null]>;
  readonly load: Statement<[number], { last_rowid: number; rows: number; data: Uint8Array }>;
  readonly save: Statement<[number, number, number, Uint8Array], void>;
}

const prepared = new WeakMap<Database, SnapshotStatements>();

function statements(db: Database): SnapshotStatements {
  let st = prepared.get(db);
  if (st === undefined) {
    const columns = "rowid, line, offset, length, id, parent_id, type, role";
    st = {
      span: prepareArrays(
        db,
        "SELECT max(rowid) FROM entries INDEXED BY entries_id WHERE file_id = ?",
      ),
      // A file's rows in rowid order by a range of the table (a catch-up's rows come later).
      rowsAfter: prepareArrays(
        db,
        `SELECT ${columns} FROM entries e WHERE e.rowid > ? AND e.rowid <= ? AND +e.file_id = ? ORDER BY e.rowid`,
      ),
      endAt: prepareArrays(db, "SELECT file_id, line, offset, id FROM entries WHERE rowid = ?"),
      load: prepare(db, "SELECT last_rowid, rows, data FROM file_columns WHERE file_id = ?"),
      save: prepare(
        db,
        `INSERT INTO file_columns (file_id, last_rowid, rows, data) VALUES (?, ?, ?, ?)
         ON CONFLICT (file_id) DO UPDATE SET last_rowid = excluded.last_rowid,
           rows = excluded.rows, data = excluded.data`,
      ),
    };
    prepared.set(db, st);
  }
  return st;
}

/** A file's stored snapshot: the last row it covers, its row count and the blob. */
export interface StoredSnapshot {
  readonly last_rowid: number;
  readonly rows: number;
  readonly data: Uint8Array;
}

/** The stored snapshot of file `fileId`, if it has one. */
export function storedSnapshot(db: Database, fileId: number): StoredSnapshot | undefined {
  return statements(db).load.get(fileId);
}

/**
 * THE check that a stored snapshot is of file `fileId`'s rows now: the row it names as its last
 * is still this file's, at the snapshot's last line, offset and id (`last`; none for a snapshot
 * of no rows). A file's rows go only with its `files` row, and the snapshot with them, so rows
 * that end where the snapshot ends are the rows it was made of — provided it was written in the
 * transaction that read them ({@link ReadLayout.save}).
 */
export function snapshotEndMatches(
  db: Database,
  fileId: number,
  stored: StoredSnapshot,
  last: { readonly line: number; readonly offset: number; readonly id: string } | undefined,
): boolean {
  if (last === undefined) return true;
  const end = statements(db).endAt.get(stored.last_rowid);
  return (
    end !== undefined &&
    end[0] === fileId &&
    end[1] === last.line &&
    end[2] === last.offset &&
    end[3] === last.id
  );
}

/** `rows` with its number columns as arrays (a decoded snapshot's are typed arrays). */
function growable(rows: LayoutRows) {
  const array = (a: ArrayLike<number>) => (Array.isArray(a) ? (a as number[]) : Array.from(a));
  return {
    ...rows,
    lines: array(rows.lines),
    offsets: array(rows.offsets),
    lengths: array(rows.lengths),
  };
}

/** Appends raw rows to `into` (in rowid order); returns the last rowid, or `last` without rows. */
function appendRows(
  into: ReturnType<typeof growable>,
  rows: readonly RawRow[],
  last: number,
): number {
  for (const r of rows) {
    into.lines.push(r[1]);
    into.offsets.push(r[2]);
    into.lengths.push(r[3]);
    into.ids.push(r[4]);
    into.parents.push(r[5]);
    into.types.push(r[6]);
    into.roles.push(r[7] ?? undefined);
    last = r[0];
  }
  return last;
}

/** The file's rows an open needs, how many came from the snapshot and after it. */
export interface ReadLayout {
  readonly rows: LayoutRows;
  readonly fromSnapshot: number;
  readonly afterSnapshot: number;
  /**
   * Writes the snapshot of these rows when it is worth it — only inside the transaction the
   * rows were read in (`inReadTransaction`), where a write fails if another process changed
   * the index since the read: a snapshot saved after another process re-indexed the file under
   * the same file id and rowids would pass every later check and keep the old parents. Outside
   * a transaction it writes nothing.
   */
  readonly save: () => void;
}

/** A tail this long after the snapshot is folded into a new one when read. */
export const RESNAPSHOT_ROWS = 4096;

const emptyRows = (): LayoutRows => ({
  lines: [],
  offsets: [],
  lengths: [],
  ids: [],
  parents: [],
  types: [],
  roles: [],
});

/**
 * The rows of file `fileId` (whose rows are up to date): the stored snapshot, checked against
 * the row it ends at, and the rows added after it; with no usable snapshot, every row, and a
 * snapshot written of them (best effort: a read-only or busy index answers all the same).
 */
export function readLayoutRows(db: Database, fileId: number): ReadLayout {
  const st = statements(db);
  const stored = st.load.get(fileId);
  let rows: LayoutRows | undefined;
  let last = 0;
  if (stored !== undefined) {
    rows = decodeSnapshot(stored.data);
    const n = rows?.ids.length ?? 0;
    const end =
      rows === undefined || n === 0
        ? undefined
        : {
            line: rows.lines[n - 1] as number,
            offset: rows.offsets[n - 1] as number,
            id: rows.ids[n - 1] as string,
          };
    // The snapshot ends at the row it names, or it is not this file's rows: read them all.
    if (rows !== undefined && n === stored.rows && snapshotEndMatches(db, fileId, stored, end)) {
      last = stored.last_rowid;
    } else rows = undefined;
  }
  const fromSnapshot = rows?.ids.length ?? 0;
  let all: LayoutRows = rows ?? emptyRows();
  const end = st.span.get(fileId)?.[0] ?? null;
  const tail = end === null || end <= last ? [] : st.rowsAfter.all(last, end, fileId);
  if (tail.length > 0) {
    const grown = growable(all);
    last = appendRows(grown, tail, last);
    all = grown;
  }
  const afterSnapshot = all.ids.length - fromSnapshot;
  const worth = afterSnapshot > 0 && (fromSnapshot === 0 || afterSnapshot >= RESNAPSHOT_ROWS);
  const save = () => {
    const data = worth && db.isTransaction ? encodeSnapshot(all) : undefined;
    if (data === undefined) return;
    try {
      st.save.run(fileId, last, all.ids.length, data);
    } catch {
      // Busy, changed since the read (SQLITE_BUSY_SNAPSHOT), read-only or full: the next open
      // reads the rows again.
    }
  };
  return { rows: all, fromSnapshot, afterSnapshot, save };
}
