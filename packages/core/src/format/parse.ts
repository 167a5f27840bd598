/**
 * Line-level parsing of a session file (SPEC §2.1): one parser, {@link JsonlScanner}, streaming
 * lines to a visitor. The document form, {@link parseJsonl}, keeps every non-blank line as a
 * record or a {@link LineIssue}: the load reports issues (W5), a rewrite puts them back (W4).
 */

// Either alone: fp-ts/lib/Array (`lefts`, `rights`) would load most of fp-ts at start-up.
import { type Either, isLeft, isRight, left, right } from "fp-ts/lib/Either.js";
import { isJsonRecord, type JsonRecord } from "../schema/record-fields.js";
import type { FileEntry } from "../schema/types.js";

// Where the readers of raw records look for them (one definition, in schema/record-fields.ts).
export { isJsonRecord, type JsonRecord };

/** A line that is kept but is not a record. */
export interface LineIssue {
  /**
   * Not JSON at all, or JSON but not an object ([Fix] W6: R1.6 kept `42` or `[1]` as an entry),
   * or longer than a reader's line bound (only read-only readers set one: see
   * {@link JsonlScanner.skipLine}).
   */
  readonly kind: "invalid-json" | "not-an-object" | "line-too-long";
  /** 1-based line number in the text. */
  readonly line: number;
  /**
   * The whole line as read, without its `\n` (a `\r` stays), never cut; empty for a
   * `line-too-long` line, which was never read (so such a document must not be written back).
   */
  readonly raw: string;
  /** Why it failed: the `JSON.parse` error, or the JSON type that was found. */
  readonly message: string;
}

/** Receives the lines of a JSONL text from a {@link JsonlScanner}; `false` stops the scan. */
export interface JsonlVisitor {
  /** A line that parsed to a JSON object, with the line as read (for readers that keep lines). */
  record(record: JsonRecord, line: number, raw: string): boolean | undefined;
  /** A non-blank line that is not a JSON object. */
  issue(issue: LineIssue): boolean | undefined;
}

const NEWLINE = 10;
const OPEN_BRACE = 123;

/**
 * The one line parser of session files (SPEC §2.1): split on `\n` (a trailing `\r` is JSON
 * whitespace), blank lines skipped, the last line counted without `\n`, a non-object an issue.
 * A good line costs one `JSON.parse` and nothing else: the hot load path streams through it, in
 * chunks of any size (a file never becomes one string; a line split across chunks is joined).
 */
export class JsonlScanner {
  private carry = "";
  private line = 0;
  private stopped = false;
  private lastCode = -1;

  constructor(private readonly visitor: JsonlVisitor) {}

  /** Feeds the next chunk. Returns false once the visitor has asked to stop. */
  push(chunk: string): boolean {
    if (this.stopped || chunk.length === 0) return !this.stopped;
    this.lastCode = chunk.charCodeAt(chunk.length - 1);
    let start = 0;
    for (let end = chunk.indexOf("\n"); end >= 0; end = chunk.indexOf("\n", start)) {
      // Only the first line can continue the previous chunk's last one (then `start` is 0).
      const line = this.carry === "" ? chunk.slice(start, end) : this.carry + chunk.slice(0, end);
      this.carry = "";
      if (!this.handle(line)) return false;
      start = end + 1;
    }
    if (start < chunk.length) this.carry += chunk.slice(start);
    return true;
  }

  /** Ends the input: the last line counts even without a `\n`. */
  end(): boolean {
    if (this.stopped) return false;
    const rest = this.carry;
    this.carry = "";
    return rest === "" || this.handle(rest);
  }

  /** Whether the input seen so far ends with `\n` (false for empty input). */
  get endsWithNewline(): boolean {
    return this.lastCode === NEWLINE;
  }

  /** Lines seen so far, blank ones included: the number of the last line handled. */
  get lineCount(): number {
    return this.line;
  }

  /**
   * Ends the line in progress without parsing it: the reader found it longer than `limit`
   * bytes (`bytes` in all) and skipped the rest of it. The part already pushed is dropped, the
   * line is counted, and the visitor gets a `line-too-long` issue, so a line's cost stays
   * bounded whatever its length.
   */
  skipLine(bytes: number, limit: number, endsWithNewline: boolean): boolean {
    if (this.stopped) return false;
    this.carry = "";
    this.lastCode = endsWithNewline ? NEWLINE : -1;
    const line = ++this.line;
    const message = `line of ${bytes} bytes is longer than the ${limit}-byte limit of this reader; not read`;
    return this.keepGoing(this.visitor.issue({ kind: "line-too-long", line, raw: "", message }));
  }

  private handle(raw: string): boolean {
    return this.keepGoing(visitLine(this.visitor, raw, ++this.line));
  }

  private keepGoing(answer: boolean | undefined): boolean {
    if (answer === false) this.stopped = true;
    return !this.stopped;
  }
}

/**
 * One line's verdict by the rules of {@link JsonlScanner} (SPEC §2.1): blank lines are skipped,
 * a JSON object is a record, anything else an issue; returns the visitor's answer (`true` for a
 * blank line). Shared with the byte-level load, which sends here every line it does not vouch for.
 */
export function visitLine(visitor: JsonlVisitor, raw: string, line: number): boolean | undefined {
  // Almost every line starts with `{`; anything else may be blank.
  if (raw.charCodeAt(0) !== OPEN_BRACE && raw.trim().length === 0) return true;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return visitor.issue({ kind: "invalid-json", line, raw, message });
  }
  if (isJsonRecord(value)) return visitor.record(value, line, raw);
  const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  return visitor.issue({ kind: "not-an-object", line, raw, message: `got ${type}` });
}

/** One non-blank line of a document: its record, or the reason there is none. */
export interface DocLine extends Pick<LineIssue, "line" | "raw"> {
  readonly value: Either<LineIssue, JsonRecord>;
}

/** A session file split into lines, every non-blank line kept in file order. */
export interface ParsedDocument {
  readonly lines: readonly DocLine[];
  /** Whether the text ends with `\n`. If not, the next append must write one first (W1). */
  readonly endsWithNewline: boolean;
  /** Whether the last line is a torn fragment: no final `\n` and not valid JSON. */
  readonly tornTail: boolean;
  /** Length of the source text in UTF-16 units; `0` tells a 0-byte file apart (§6.5). */
  readonly textLength: number;
}

/** A visitor that keeps every line as a {@link DocLine}: the document form (of a legacy load). */
export class DocumentBuilder implements JsonlVisitor {
  readonly lines: DocLine[] = [];

  record(record: JsonRecord, line: number, raw: string): boolean {
    this.lines.push({ line, raw, value: right(record) });
    return true;
  }

  issue(issue: LineIssue): boolean {
    this.lines.push({ line: issue.line, raw: issue.raw, value: left(issue) });
    return true;
  }

  /** The document once `scanner` has seen the whole text of `textLength` units. */
  finish(scanner: JsonlScanner, textLength: number): ParsedDocument {
    const endsWithNewline = scanner.endsWithNewline;
    const last = this.lines.at(-1);
    const invalid = last?.value._tag === "Left" && last.value.left.kind === "invalid-json";
    const tornTail = !endsWithNewline && last?.line === scanner.lineCount && invalid;
    return { lines: this.lines, endsWithNewline, tornTail, textLength };
  }
}

/** Splits a session file into lines and parses each (SPEC §2.1). Never throws. */
export function parseJsonl(text: string): ParsedDocument {
  const builder = new DocumentBuilder();
  const scanner = new JsonlScanner(builder);
  scanner.push(text);
  scanner.end();
  return builder.finish(scanner, text.length);
}

/** The records of a document, in file order (the header, if any, among them). */
export function documentRecords(doc: ParsedDocument): JsonRecord[] {
  return doc.lines.flatMap(({ value }) => (isRight(value) ? [value.right] : []));
}

/**
 * The issues of a document, in file order: the load diagnostics (W5: malformed lines are reported,
 * never dropped silently).
 */
export function documentIssues(doc: ParsedDocument): LineIssue[] {
  return doc.lines.flatMap(({ value }) => (isLeft(value) ? [value.left] : []));
}

/**
 * Reference-compatible helper (SPEC §8.6): every JSON object line of the trimmed text, without
 * a header or shape check; [Fix] non-objects are skipped too (W6). The trim ignores a leading
 * BOM, as R1.6 does (the load path, {@link parseJsonl}, reports it as invalid JSON).
 */
export function parseSessionEntries(text: string): FileEntry[] {
  const out: FileEntry[] = [];
  const scanner = new JsonlScanner({
    record: (record) => void out.push(record as unknown as FileEntry),
    issue: () => true,
  });
  scanner.push(text.trim());
  scanner.end();
  return out;
}
