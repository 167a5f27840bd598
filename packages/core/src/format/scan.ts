import { isJsonRecord, type JsonRecord, type LineIssue } from "./parse.js";

/** Receives the lines of a JSONL text as {@link scanJsonl} finds them. */
export interface JsonlVisitor {
  /** A line that parsed to a JSON object. Return `false` to stop scanning. */
  record(record: JsonRecord, line: number): boolean | undefined;
  /** A non-blank line that is not a JSON object. Return `false` to stop scanning. */
  issue(issue: LineIssue): boolean | undefined;
}

/** `\n`, `{` and `\r` as char codes. */
const NEWLINE = 10;
const OPEN_BRACE = 123;

/**
 * The streaming form of `parseJsonl` for the hot load path: the same line rules (split on
 * `\n`, trailing `\r` tolerated, blank lines skipped, last line counts without `\n`, non-
 * objects are issues), but each good line costs one `JSON.parse` and nothing else — no line
 * objects, no `Either`s, no intermediate arrays. Text arrives in chunks of any size (a file
 * read piece by piece never becomes one string); a line split across chunks is joined.
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
    let end = chunk.indexOf("\n");
    if (end >= 0 && this.carry !== "") {
      const first = this.carry + chunk.slice(0, end);
      this.carry = "";
      if (!this.handle(first)) return false;
      start = end + 1;
      end = chunk.indexOf("\n", start);
    }
    while (end >= 0) {
      if (!this.handle(chunk.slice(start, end))) return false;
      start = end + 1;
      end = chunk.indexOf("\n", start);
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

  private handle(raw: string): boolean {
    const line = ++this.line;
    // Almost every line starts with `{`; anything else may be blank (trim's idea of blank).
    if (raw.charCodeAt(0) !== OPEN_BRACE && raw.trim().length === 0) return true;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return this.keepGoing(this.visitor.issue({ kind: "invalid-json", line, raw, message }));
    }
    if (isJsonRecord(value)) return this.keepGoing(this.visitor.record(value, line));
    const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    return this.keepGoing(
      this.visitor.issue({ kind: "not-an-object", line, raw, message: `got ${type}` }),
    );
  }

  private keepGoing(answer: boolean | undefined): boolean {
    if (answer === false) this.stopped = true;
    return !this.stopped;
  }
}

/** Scans a whole text with a {@link JsonlScanner}. Returns whether it reached the end. */
export function scanJsonl(text: string, visitor: JsonlVisitor): boolean {
  const scanner = new JsonlScanner(visitor);
  return scanner.push(text) && scanner.end();
}

/** Whether a text ends with `\n` (else the next append must write one first, W1). */
export function endsWithNewline(text: string): boolean {
  return text.length > 0 && text.charCodeAt(text.length - 1) === NEWLINE;
}
