/**
 * The column snapshot's blob (see `column-snapshot.ts`): a small JSON head (format, row count,
 * the type and role tables), then the number columns as typed arrays — offsets, lengths, lines,
 * each parent as its entry's position, type and role codes — and the ids joined by `\n`. Read
 * as views over the bytes, nothing decoded per row until asked.
 */

import type { VouchedLayout } from "@pi-sessions/core";

/** The rows' columns an open needs, in file order (core's layout but for the header's place). */
export type LayoutRows = Omit<
  VouchedLayout,
  "size" | "headerLine" | "headerOffset" | "headerLength"
>;

/** Bumped when the blob's layout changes: an older snapshot is not read (it is rebuilt). */
const FORMAT = 1;

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

/**
 * The views of a snapshot made by {@link encodeSnapshot} (see {@link SnapshotViews}); undefined
 * for one of another format or one that is not a whole snapshot (a damaged blob is then read as
 * no snapshot, and rewritten, instead of failing every query of the file).
 */
export function snapshotViews(data: Uint8Array): SnapshotViews | undefined {
  try {
    return viewsOf(data);
  } catch {
    return undefined;
  }
}

/** {@link snapshotViews}, throwing on a blob that is not a whole snapshot. */
function viewsOf(data: Uint8Array): SnapshotViews | undefined {
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
  // Typed arrays check their own bounds; the id bytes after them must be there too.
  if (!Number.isSafeInteger(n) || n < 0 || at + 22 * n > bytes.length) return undefined;
  if (!Array.isArray(head.typeTable) || !Array.isArray(head.roleTable)) return undefined;
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
