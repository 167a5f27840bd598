/**
 * Line-level parsing of a session file (SPEC §2.1). Pure: text in, values out.
 *
 * A file is read into a {@link ParsedDocument} that keeps every non-blank line, in order, as
 * either a parsed record or the raw text plus a {@link LineIssue}. Nothing is dropped here:
 * the projection skips the issues, the load reports them (W5), and a rewrite puts them back
 * word for word (W4).
 */

import type { Either } from "fp-ts/lib/Either.js";
import { left, right } from "fp-ts/lib/Either.js";
import type { FileEntry } from "../schema/types.js";

/** A parsed JSON object: one record of a session file, header or entry. */
export type JsonRecord = Record<string, unknown>;

/**
 * Why a line is not a record: it is not JSON at all, or it is JSON but not an object
 * (SPEC §2.1 [Fix], W6 — R1.6 would have kept `42` or `[1]` as an "entry").
 */
export type LineIssueKind = "invalid-json" | "not-an-object";

/** A line that is kept but is not a record. */
export interface LineIssue {
  readonly kind: LineIssueKind;
  /** 1-based line number in the text. */
  readonly line: number;
  /** The whole line as read (without its `\n`); only {@link formatIssue} shortens it. */
  readonly raw: string;
  /** Why it failed: the `JSON.parse` error, or the JSON type that was found. */
  readonly message: string;
}

/** One non-blank line of a document. */
export interface DocLine {
  /** 1-based line number in the text. */
  readonly line: number;
  /** The line as read from the text, without its `\n` (a trailing `\r` stays). */
  readonly raw: string;
  /** The record, or the reason there is none. */
  readonly value: Either<LineIssue, JsonRecord>;
}

/** A session file split into lines, every non-blank line kept in file order. */
export interface ParsedDocument {
  /** Non-blank lines in order; blank and whitespace-only lines are not kept. */
  readonly lines: readonly DocLine[];
  /** Whether the text ends with `\n`. If not, the next append must write one first (W1). */
  readonly endsWithNewline: boolean;
  /**
   * Whether the last line is a torn fragment: the text does not end with `\n` and its last
   * line is not valid JSON (a writer stopped mid-line).
   */
  readonly tornTail: boolean;
  /** Length of the source text in UTF-16 units; `0` tells a 0-byte file apart (§6.5). */
  readonly textLength: number;
}

/** Character code of `{`, the first character of nearly every line. */
const OPEN_BRACE = 123;

/**
 * True for a line that holds nothing but whitespace. Uses `String.prototype.trim`'s idea of
 * whitespace, as the reference does (so `\v` or a no-break space alone is blank), but only
 * after a one-character check, because almost every line starts with `{`.
 */
function isBlank(segment: string): boolean {
  if (segment.length === 0) return true;
  if (segment.charCodeAt(0) === OPEN_BRACE) return false;
  return segment.trim().length === 0;
}

/** The JSON type name of a parsed value that is not a plain object. */
function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** True for a plain JSON object (not `null`, not an array). */
export function isJsonRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses one line. Returns the record or the issue; `JSON.parse` is the only work done for a
 * good line, and one small `Either` is the only allocation besides the parsed value.
 */
function parseLine(raw: string, line: number): Either<LineIssue, JsonRecord> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return left({ kind: "invalid-json", line, raw, message });
  }
  if (isJsonRecord(value)) return right(value);
  return left({ kind: "not-an-object", line, raw, message: `got ${jsonTypeOf(value)}` });
}

/**
 * Splits a session file into lines and parses each (SPEC §2.1): split on `\n`; a trailing
 * `\r` is JSON whitespace and is tolerated; blank lines are ignored; the last line counts
 * without a trailing `\n`. Lines that do not parse, or parse to something other than an
 * object, are kept with a {@link LineIssue}. Never throws.
 */
export function parseJsonl(text: string): ParsedDocument {
  const segments = text.split("\n");
  const lines: DocLine[] = [];
  for (let i = 0; i < segments.length; i++) {
    const raw = segments[i] as string;
    if (isBlank(raw)) continue;
    lines.push({ line: i + 1, raw, value: parseLine(raw, i + 1) });
  }
  const endsWithNewline = text.length > 0 && text.charCodeAt(text.length - 1) === 10;
  const last = lines[lines.length - 1];
  const tornTail =
    !endsWithNewline &&
    last !== undefined &&
    last.line === segments.length &&
    last.value._tag === "Left" &&
    last.value.left.kind === "invalid-json";
  return { lines, endsWithNewline, tornTail, textLength: text.length };
}

/** The records of a document, in file order (the header, if any, among them). */
export function documentRecords(doc: ParsedDocument): JsonRecord[] {
  const out: JsonRecord[] = [];
  for (const l of doc.lines) if (l.value._tag === "Right") out.push(l.value.right);
  return out;
}

/** The issues of a document, in file order: the load diagnostics of W5. */
export function documentIssues(doc: ParsedDocument): LineIssue[] {
  const out: LineIssue[] = [];
  for (const l of doc.lines) if (l.value._tag === "Left") out.push(l.value.left);
  return out;
}

/** How many characters of a line or parser message {@link formatIssue} shows. */
const SHOWN_RAW = 40;
const SHOWN_MESSAGE = 120;

/** Shortens `text` to `max` characters, marking the cut with `…`. */
function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * One-line human description of an issue, e.g.
 * `line 12: invalid JSON (Unexpected token …): "garbage li…"`. The raw line is shortened and
 * JSON-quoted so control characters stay visible.
 */
export function formatIssue(issue: LineIssue): string {
  const what = issue.kind === "invalid-json" ? "invalid JSON" : "not a JSON object";
  const reason = shorten(issue.message, SHOWN_MESSAGE);
  return `line ${issue.line}: ${what} (${reason}): ${JSON.stringify(shorten(issue.raw, SHOWN_RAW))}`;
}

/**
 * Reference-compatible helper (SPEC §8.6): trims the text, splits it on `\n`, parses each
 * line and skips blank and malformed ones. Does not look for a header. [Fix] Values that are
 * not objects are skipped too (W6). Because the whole text is trimmed first, a leading BOM is
 * ignored here, as in R1.6 (the load path, {@link parseJsonl}, reports it as invalid JSON).
 */
export function parseSessionEntries(text: string): FileEntry[] {
  const out: FileEntry[] = [];
  const segments = text.trim().split("\n");
  for (const segment of segments) {
    if (isBlank(segment)) continue;
    let value: unknown;
    try {
      value = JSON.parse(segment);
    } catch {
      continue;
    }
    // The shape is not checked here, as in the reference; callers narrow by `type`.
    if (isJsonRecord(value)) out.push(value as unknown as FileEntry);
  }
  return out;
}
