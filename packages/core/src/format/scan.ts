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
 * objects, no `Either`s, no intermediate arrays. Returns whether it reached the end.
 */
export function scanJsonl(text: string, visitor: JsonlVisitor): boolean {
  let start = 0;
  let line = 0;
  const length = text.length;
  while (start < length) {
    line++;
    let end = text.indexOf("\n", start);
    if (end < 0) end = length;
    const raw = text.slice(start, end);
    start = end + 1;
    // Almost every line starts with `{`; anything else may be blank (trim's idea of blank).
    if (raw.charCodeAt(0) !== OPEN_BRACE && raw.trim().length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (visitor.issue({ kind: "invalid-json", line, raw, message }) === false) return false;
      continue;
    }
    if (isJsonRecord(value)) {
      if (visitor.record(value, line) === false) return false;
    } else {
      const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
      if (visitor.issue({ kind: "not-an-object", line, raw, message: `got ${type}` }) === false) {
        return false;
      }
    }
  }
  return true;
}

/** Whether a text ends with `\n` (else the next append must write one first, W1). */
export function endsWithNewline(text: string): boolean {
  return text.length > 0 && text.charCodeAt(text.length - 1) === NEWLINE;
}
