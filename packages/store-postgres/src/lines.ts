/**
 * A session file as rows and back: each line keeps its exact bytes (as text when the text
 * encodes back to the same bytes and holds no NUL, which PostgreSQL text cannot, else as
 * bytes), with the columns the queries need read from it when it is a JSON object.
 */
import { isJsonRecord, type JsonRecord } from "@pi-sessions/core/internal";

/** One stored line of a session. */
export interface LineRow {
  readonly seq: number;
  /** The line without its `\n`, when it is text that round-trips. */
  readonly line: string | null;
  /** The line's bytes otherwise. */
  readonly raw: Buffer | null;
  readonly entryId: string | null;
  readonly parentId: string | null;
  readonly type: string | null;
  readonly ts: string | null;
  /** A user or assistant message's role (usage queries tell user messages apart by it). */
  readonly role: string | null;
}

/** The key columns of `entries` (read from each line by `lineColumns`), in `keyValues` order. */
export const KEY_COLUMNS = "entry_id, parent_id, type, ts, role";

/** A row's key columns, in {@link KEY_COLUMNS} order. */
export function keyValues(row: LineRow): (string | null)[] {
  return [row.entryId, row.parentId, row.type, row.ts, row.role];
}

/** Each key column of `rows` as an array (for `unnest`), in {@link KEY_COLUMNS} order. */
export function keyArrays(rows: readonly LineRow[]): (string | null)[][] {
  const values = rows.map(keyValues);
  return KEY_COLUMNS.split(", ").map((_, i) => values.map((v) => v[i] ?? null));
}

/** A surrogate half without its other half: JSON may hold one, UTF-8 cannot. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Columns = Omit<LineRow, "seq" | "line" | "raw">;

const NONE: Columns = {
  entryId: null,
  parentId: null,
  type: null,
  ts: null,
  role: null,
};

/**
 * A key column's value: key columns only serve queries (the line is the record), so one
 * PostgreSQL text cannot hold (a NUL, a lone surrogate) is left out rather than failing the
 * write.
 */
function text(v: unknown): string | null {
  return typeof v === "string" && !v.includes("\u0000") && !LONE_SURROGATE.test(v) ? v : null;
}

/**
 * The query columns of a line: an object's `id`, `parentId`, `type` and `timestamp`, and a
 * message's `role`. What a listing shows is not read here: core's listing fold reads the
 * lines themselves.
 */
export function lineColumns(value: unknown): Columns {
  if (!isJsonRecord(value)) return NONE;
  const message = value.message;
  const role = value.type === "message" && isJsonRecord(message) ? message.role : undefined;
  return {
    entryId: text(value.id),
    parentId: text(value.parentId),
    type: text(value.type),
    ts: text(value.timestamp),
    role: role === "user" || role === "assistant" ? role : null,
  };
}

/** The columns of a line we cannot parse as JSON are all null. */
function parsedColumns(text: string): Columns {
  try {
    return lineColumns(JSON.parse(text));
  } catch {
    return lineColumns(undefined);
  }
}

/** The row of one line's bytes. */
function rowOf(seq: number, bytes: Buffer): LineRow {
  const text = bytes.toString("utf8");
  const exact = !text.includes("\u0000") && Buffer.byteLength(text) === bytes.length;
  if (exact && Buffer.from(text, "utf8").equals(bytes)) {
    return { seq, line: text, raw: null, ...parsedColumns(text) };
  }
  return { seq, line: null, raw: Buffer.from(bytes), ...parsedColumns(text) };
}

/** A file split into rows; `needsNewline` when its last line has no `\n`. */
export interface SplitFile {
  readonly rows: LineRow[];
  readonly needsNewline: boolean;
}

/** Splits a file's bytes at every `\n`, numbering the lines from 0. */
export function splitFile(bytes: Buffer): SplitFile {
  const rows: LineRow[] = [];
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, start);
    if (end < 0) break;
    rows.push(rowOf(rows.length, bytes.subarray(start, end)));
    start = end + 1;
  }
  const needsNewline = start < bytes.length;
  if (needsNewline) rows.push(rowOf(rows.length, bytes.subarray(start)));
  return { rows, needsNewline };
}

/**
 * The row of an entry the manager serialised (`JSON.stringify`, so the text round-trips and
 * holds no raw NUL): its line as given, the query columns read back from it. Parsing the line
 * costs less than serialising the entry again (the manager's entry is a stand-in that would
 * decode the same line first); `record`, when given, is that line parsed already (by the
 * listing fold), read instead of parsing it again.
 */
export function serialisedRow(seq: number, line: string, record?: JsonRecord): LineRow {
  const columns = record === undefined ? parsedColumns(line) : lineColumns(record);
  return { seq, line, raw: null, ...columns };
}

/** A stored line as it reads back: text, or bytes. */
export interface StoredLine {
  readonly line: string | null;
  readonly raw: Buffer | null;
}

/** The file's bytes: every line with its `\n`, the last one without when `needsNewline`. */
export function fileBytes(lines: readonly StoredLine[], needsNewline: boolean): Buffer {
  const parts: Buffer[] = [];
  const newline = Buffer.from("\n");
  lines.forEach((l, i) => {
    parts.push(l.raw ?? Buffer.from(l.line ?? "", "utf8"));
    if (!needsNewline || i < lines.length - 1) parts.push(newline);
  });
  return Buffer.concat(parts);
}

/**
 * The file's text as the file store's reader decodes it (UTF-8, malformed bytes replaced):
 * the same text gives the same load, so a session replays from rows as from its file.
 */
export function fileText(lines: readonly StoredLine[], needsNewline: boolean): string {
  let text = "";
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as StoredLine;
    text += l.line ?? (l.raw as Buffer).toString("utf8");
    if (!needsNewline || i < lines.length - 1) text += "\n";
  }
  return text;
}
