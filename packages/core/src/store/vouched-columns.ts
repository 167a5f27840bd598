/**
 * A columns load without reading the file: the column layout of a session file (where each
 * entry's line is, its tree fields) as something else vouches for it — the session index,
 * wired in by pi's launcher (core never depends on the index). The one who vouches answers
 * only for a file as it is now (its own freshness rule) and only for a file a load would
 * report nothing about (no damaged line, duplicate id, dangling or late parent, torn tail,
 * legacy header): such a file's entries are exactly its lines after the header, so the
 * layout is the load's result but for what the load itself decodes. That is read here, by
 * core's own rules: the header line, and the records the built-in projections fold at load
 * (`entryTypesWithRole("tree-state")`: labels, session names). Every other body is read when
 * something reads it (file-lines.ts), and the entry log checks each line's id and type then.
 * Any doubt here (a header line that is not a current header, a decoded record that is not
 * the entry the layout names, arrays that disagree) and the caller loads the file as usual.
 */

import { closeSync, openSync, readSync, type Stats } from "node:fs";
import { type LoadedColumns, loadedColumns } from "../format/column-load.js";
import { LineMap } from "../format/line-map.js";
import { isJsonRecord, type JsonRecord } from "../format/parse.js";
import { isCurrentHeader, isValidHeader, recordKind } from "../format/record-rules.js";
import { entryTypesWithRole } from "../schema/entry-types.js";
import type { SessionEntry } from "../schema/types.js";
import { FileLines } from "./file-lines.js";

/**
 * The column layout of a session file as another source vouches for it (see the module
 * comment). The arrays are handed over: the load keeps them as its columns.
 */
export interface VouchedLayout {
  /** The bytes of the file the layout covers: whole lines, the last one ended by `\n`. */
  readonly size: number;
  /** The header's 1-based line. */
  readonly headerLine: number;
  /** The byte offset of the header's line. */
  readonly headerOffset: number;
  /** The byte length of the header's line (without its `\n`). */
  readonly headerLength: number;
  /** Each entry's 1-based line, in file order. */
  readonly lines: ArrayLike<number>;
  /** Each entry's line's byte offset. */
  readonly offsets: ArrayLike<number>;
  /** Each entry's line's byte length (without its `\n`). */
  readonly lengths: ArrayLike<number>;
  /** Each entry's `id`. */
  readonly ids: string[];
  /**
   * Each entry's `parentId` when it is a string, else null (a root's null, or a missing or
   * non-string value: the load reads the line to tell them apart).
   */
  readonly parents: (string | null)[];
  /** Each entry's `type` when it is a string, else null (the load reads the line). */
  readonly types: (string | null)[];
  /** A message's role when known (a hint, as in a columns load), else undefined. */
  readonly roles: (string | undefined)[];
}

/**
 * Gives the vouched layout of the session file at `path` whose stat is `stats` (the file is
 * open, unchanged since that stat was taken), or undefined when it cannot vouch for the file as
 * it is now. It may throw: the load then reads the file.
 */
export type ColumnsFor = (path: string, stats: Stats) => VouchedLayout | undefined;

/** Entry types the load decodes (the built-in projections fold them): read from the file here. */
const DECODED_AT_LOAD = new Set<string>(entryTypesWithRole("tree-state"));

/** The JSON object on `text`, or undefined when it is none. */
function parseRecordLine(text: string): JsonRecord | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Reads `length` bytes at `offset` of the open file, or undefined when the file has fewer. */
function bytesAt(fd: number, offset: number, length: number): Buffer | undefined {
  const bytes = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, bytes, got, length - got, offset + got);
    if (n === 0) return undefined;
    got += n;
  }
  return bytes;
}

/** Whether the layout's arrays agree with each other and fit in `size` bytes, lines ascending. */
function consistent(layout: VouchedLayout, fileSize: number): boolean {
  const n = layout.ids.length;
  const { lines, offsets, lengths } = layout;
  if (layout.size > fileSize || layout.headerOffset + layout.headerLength >= layout.size)
    return false;
  for (const column of [layout.parents, layout.types, layout.roles, lines, offsets, lengths])
    if (column.length !== n) return false;
  let lastLine = layout.headerLine;
  let lastEnd = layout.headerOffset + layout.headerLength;
  for (let i = 0; i < n; i++) {
    const line = lines[i] as number;
    const offset = offsets[i] as number;
    if (!(line > lastLine) || !(offset > lastEnd)) return false;
    lastLine = line;
    lastEnd = offset + (lengths[i] as number);
  }
  // The last entry's line ends the covered bytes (its `\n` is the last of them).
  return n === 0 ? lastEnd < layout.size : lastEnd + 1 === layout.size;
}

/**
 * The columns of the session file open as `fd` from `layout`, reading only the header and the
 * records the load decodes; undefined when the file does not bear the layout out.
 */
export function columnsFromLayout(
  path: string,
  fd: number,
  stats: Stats,
  layout: VouchedLayout,
): { columns: LoadedColumns; source: FileLines } | undefined {
  if (!consistent(layout, stats.size)) return undefined;
  const headerBytes = bytesAt(fd, layout.headerOffset, layout.headerLength);
  const header = headerBytes && parseRecordLine(headerBytes.toString("utf8"));
  if (header === undefined || !isValidHeader(header) || !isCurrentHeader(header)) return undefined;
  const n = layout.ids.length;
  const { offsets, lengths } = layout;
  const source = new FileLines(path, layout.size, offsets, lengths);
  const slots: (SessionEntry | undefined)[] = new Array(n);
  const roles: unknown[] = new Array(n);
  // Handed over: the few values a line corrects are set in place.
  const parents: unknown[] = layout.parents;
  const types: unknown[] = layout.types;
  const entryLines = new LineMap();
  for (let i = 0; i < n; i++) {
    const type = layout.types[i] as string | null;
    entryLines.push(layout.lines[i] as number);
    if (type === "message") roles[i] = layout.roles[i];
    const decoded = type !== null && DECODED_AT_LOAD.has(type);
    // A null parent or type may stand for a missing or non-string value: the line says which.
    if (!decoded && type !== null && layout.parents[i] !== null) continue;
    const record = parseRecordLine(source.line(i));
    if (record === undefined || recordKind(record, true) !== "entry") return undefined;
    if (record.id !== layout.ids[i]) return undefined;
    if (type !== null ? record.type !== type : typeof record.type === "string") return undefined;
    const parent = record.parentId;
    const parentNamed = layout.parents[i];
    if (parentNamed !== null ? parent !== parentNamed : typeof parent === "string")
      return undefined;
    parents[i] = parent;
    types[i] = record.type;
    if (decoded) slots[i] = record as unknown as SessionEntry;
  }
  const columns = loadedColumns(
    header,
    { ids: layout.ids, parents, types, roles, slots, entryLines, offsets, lengths },
    { headerLine: layout.headerLine, needsNewline: false, diagnostics: [], size: layout.size },
  );
  return { columns, source };
}

/**
 * {@link columnsFromLayout} of what `columnsFor` vouches for the file open as `fd`; undefined
 * when it vouches for nothing, throws, or the file does not bear its layout out.
 */
export function vouchedColumns(
  columnsFor: ColumnsFor,
  path: string,
  fd: number,
  stats: Stats,
): { columns: LoadedColumns; source: FileLines } | undefined {
  try {
    const layout = columnsFor(path, stats);
    return layout && columnsFromLayout(path, fd, stats, layout);
  } catch {
    // The vouching source failed: the file is loaded and checked as it would be without it.
    return undefined;
  }
}

/** Opens `path` read-only for {@link columnsFromLayout} (tests, tools): closed after. */
export function columnsFromLayoutAt(
  path: string,
  stats: Stats,
  layout: VouchedLayout,
): ReturnType<typeof columnsFromLayout> {
  const fd = openSync(path, "r");
  try {
    return columnsFromLayout(path, fd, stats, layout);
  } finally {
    closeSync(fd);
  }
}
