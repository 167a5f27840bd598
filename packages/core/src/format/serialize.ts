/** Writing records and documents back to text (SPEC §2.1, §2.5). Pure: values in, text out. */

import type { SessionHeader } from "../schema/types.js";
import type { ParsedDocument } from "./parse.js";
import { CURRENT_SESSION_VERSION } from "./record-rules.js";

/** One record as a line (SPEC §2.1): compact `JSON.stringify`, key order kept, then `\n`. */
export function serializeRecord(record: object): string {
  return `${JSON.stringify(record)}\n`;
}

/** Several records as consecutive lines. */
export function serializeRecords(records: readonly object[]): string {
  return records.map((record) => serializeRecord(record)).join("");
}

/**
 * A whole document as lines, for a rewrite in chunks: records re-serialised (number spellings
 * and escapes normalised, SPEC §2.5), lines that did not parse word for word in place (W4), no
 * blank lines, and every line, a torn last one too, ends with `\n` (W1: appends never land on
 * a fragment).
 */
export function serializeDocumentLines(doc: ParsedDocument): string[] {
  return doc.lines.map((l) =>
    l.value._tag === "Right" ? serializeRecord(l.value.right) : `${l.raw}\n`,
  );
}

/**
 * A whole document as text; see {@link serializeDocumentLines}. For a file we wrote (no blank
 * lines, ending in `\n`), `serializeDocument(parseJsonl(text)) === text` (invariant I5: write and
 * reparse round-trip).
 */
export function serializeDocument(doc: ParsedDocument): string {
  return serializeDocumentLines(doc).join("");
}

/** Fields of a new header: all but `type`; see {@link createHeader}. */
export type CreateHeaderOptions = Omit<SessionHeader, "type">;

/**
 * A new header in the reference's key order (SPEC §2.2), at the current version by default; an
 * undefined `parentSession` is left out, so the in-memory value is JSON-equal to the line.
 */
export function createHeader(options: CreateHeaderOptions): SessionHeader {
  const { id, timestamp, cwd, parentSession } = options;
  const version = options.version ?? CURRENT_SESSION_VERSION;
  const header: SessionHeader = { type: "session", version, id, timestamp, cwd };
  if (parentSession !== undefined) header.parentSession = parentSession;
  return header;
}
