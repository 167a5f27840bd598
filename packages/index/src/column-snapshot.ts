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

import type { VouchedLayout } from "@pi-sessions/core";
import type { Database, Statement } from "./sqlite.js";
import { prepare, prepareArrays } from "./sqlite.js";

/** The rows' columns an open needs, in file order (core's layout but for the header's place). */
export type LayoutRows = Omit<
  VouchedLayout,
  "size" | "headerLine" | "headerOffset" | "headerLength"
>;

/** Raw row: rowid, line, offset, length, id, parent_id, type, role. */
type RawRow = [number, number, number, number, string, string | null, string | null, string | null];

/** Bumped when the blob's layout changes: an older snapshot is not read (it is rebuilt). */
const FORMAT = 1;

/** The statements of one connection. */
interface SnapshotStatements {
  readonly span: Statement<[number], [number | null]>;
  readonly rowsAfter: Statement<[number, number, number], RawRow>;
  readonly rowAt: Statement<[number], RawRow>;
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
      rowAt: prepareArrays(db, `SELECT ${columns} FROM entries WHERE rowid = ?`),
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

/** Encodes `rows` (see the module comment), or undefined when they do not fit the format. */
export function encodeSnapshot(rows: LayoutRows): Uint8Array | undefined {
  const n = rows.ids.length;
  const position = new Map<string, number>();
  const parentAt = new Int32Array(n);
  const typeTable: (string | null)[] = [];
  const roleTable: string[] = [];
  const typeCode = new Uint8Array(n);
  const roleCode = new Uint8Array(n);
  const code = <T>(table: T[], value: T) => {
    let k = table.indexOf(value);
    if (k < 0) k = table.push(value) - 1;
    return k;
  };
  for (let i = 0; i < n; i++) {
    const id = rows.ids[i] as string;
    if (id.includes("\n")) return undefined;
    const parent = rows.parents[i];
    const at = parent === null ? -1 : position.get(parent as string);
    if (at === undefined) return undefined;
    parentAt[i] = at;
    position.set(id, i);
    typeCode[i] = code(typeTable, rows.types[i] as string | null);
    const role = rows.roles[i];
    roleCode[i] = role === undefined ? 0 : code(roleTable, role) + 1;
    if (typeTable.length > 255 || roleTable.length > 254) return undefined;
  }
  const head = Buffer.from(JSON.stringify({ format: FORMAT, n, typeTable, roleTable }));
  const ids = Buffer.from(rows.ids.join("\n"));
  const parts = [
    Buffer.from(new Uint32Array([head.length]).buffer),
    head,
    Buffer.alloc((8 - ((4 + head.length) % 8)) % 8),
    Buffer.from(Float64Array.from(rows.offsets).buffer),
    Buffer.from(Uint32Array.from(rows.lengths).buffer),
    Buffer.from(Uint32Array.from(rows.lines).buffer),
    Buffer.from(parentAt.buffer),
    Buffer.from(typeCode.buffer),
    Buffer.from(roleCode.buffer),
    ids,
  ];
  return Buffer.concat(parts);
}

/**
 * A snapshot's number columns as typed arrays over its bytes, its code tables and its ids'
 * bytes (`\n`-joined), nothing decoded per row: undefined when it is of another format.
 */
export interface SnapshotViews {
  readonly n: number;
  readonly offsets: Float64Array;
  readonly lengths: Uint32Array;
  readonly lines: Uint32Array;
  /** Each entry's parent as a position (-1 for a root). */
  readonly parentAt: Int32Array;
  readonly typeCode: Uint8Array;
  readonly roleCode: Uint8Array;
  readonly typeTable: readonly (string | null)[];
  readonly roleTable: readonly string[];
  readonly idBytes: Buffer;
}

/** The views of a snapshot made by {@link encodeSnapshot} (see {@link SnapshotViews}). */
export function snapshotViews(data: Uint8Array): SnapshotViews | undefined {
  // Typed arrays over the blob need their alignment: a copy only when it is not aligned.
  const bytes =
    data.byteOffset % 8 === 0
      ? Buffer.from(data.buffer, data.byteOffset, data.length)
      : Buffer.from(data);
  const buffer = bytes.buffer;
  const base = bytes.byteOffset;
  const headLength = bytes.readUInt32LE(0);
  const head = JSON.parse(bytes.toString("utf8", 4, 4 + headLength)) as {
    format: number;
    n: number;
    typeTable: (string | null)[];
    roleTable: string[];
  };
  if (head.format !== FORMAT) return undefined;
  const n = head.n;
  let at = 4 + headLength;
  at += (8 - (at % 8)) % 8;
  const take = <T>(make: (offset: number) => T, size: number): T => {
    const value = make(base + at);
    at += size * n;
    return value;
  };
  return {
    n,
    offsets: take((o) => new Float64Array(buffer, o, n), 8),
    lengths: take((o) => new Uint32Array(buffer, o, n), 4),
    lines: take((o) => new Uint32Array(buffer, o, n), 4),
    parentAt: take((o) => new Int32Array(buffer, o, n), 4),
    typeCode: take((o) => new Uint8Array(buffer, o, n), 1),
    roleCode: take((o) => new Uint8Array(buffer, o, n), 1),
    typeTable: head.typeTable,
    roleTable: head.roleTable,
    idBytes: bytes.subarray(at),
  };
}

/** Decodes a snapshot made by {@link encodeSnapshot}; undefined when it is of another format. */
export function decodeSnapshot(data: Uint8Array): LayoutRows | undefined {
  const views = snapshotViews(data);
  if (views === undefined) return undefined;
  const { n, parentAt, typeCode, roleCode, typeTable, roleTable } = views;
  const ids = n === 0 ? [] : views.idBytes.toString("utf8").split("\n");
  if (ids.length !== n) return undefined;
  const parents: (string | null)[] = new Array(n);
  const types: (string | null)[] = new Array(n);
  const roles: (string | undefined)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const p = parentAt[i] as number;
    parents[i] = p < 0 ? null : (ids[p] as string);
    types[i] = typeTable[typeCode[i] as number] as string | null;
    const r = roleCode[i] as number;
    roles[i] = r === 0 ? undefined : roleTable[r - 1];
  }
  const { lines, offsets, lengths } = views;
  return { lines, offsets, lengths, ids, parents, types, roles };
}

/** The file's rows an open needs, how many came from the snapshot and after it. */
export interface ReadLayout {
  readonly rows: LayoutRows;
  readonly fromSnapshot: number;
  readonly afterSnapshot: number;
  /** Writes the snapshot of these rows when it is worth it (call after the read's transaction). */
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
    const end = st.rowAt.get(stored.last_rowid);
    const n = rows?.ids.length ?? 0;
    // The snapshot ends at the row it names, or it is not this file's rows: read them all.
    const matches =
      rows !== undefined &&
      n === stored.rows &&
      (n === 0 ||
        (end !== undefined &&
          end[4] === rows.ids[n - 1] &&
          end[2] === rows.offsets[n - 1] &&
          end[1] === rows.lines[n - 1]));
    if (matches) last = stored.last_rowid;
    else rows = undefined;
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
    const data = worth ? encodeSnapshot(all) : undefined;
    try {
      if (data !== undefined) st.save.run(fileId, last, all.ids.length, data);
    } catch {
      // Busy, read-only or full: the next open reads the rows again.
    }
  };
  return { rows: all, fromSnapshot, afterSnapshot, save };
}
