/**
 * Writing records and documents back to text (SPEC §2.1, §2.5). Pure: values in, text out.
 */

import type { SessionHeader } from "../schema/types.js";
import type { DocLine, ParsedDocument } from "./parse.js";
import { CURRENT_SESSION_VERSION } from "./record-rules.js";

/**
 * One record as a line: compact `JSON.stringify` (key order kept, `undefined` properties
 * left out) followed by `\n` (SPEC §2.1).
 */
export function serializeRecord(record: object): string {
  return `${JSON.stringify(record)}\n`;
}

/** Several records as consecutive lines. */
export function serializeRecords(records: readonly object[]): string {
  const parts: string[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) parts[i] = serializeRecord(records[i] as object);
  return parts.join("");
}

/**
 * A whole document as lines (each ending in `\n`), for a whole-file rewrite that writes in
 * chunks instead of building one large string. Records are re-serialised from their values
 * (number spellings and escapes are normalised, SPEC §2.5); lines that did not parse are
 * written word for word in their original relative positions (W4). Blank lines are not kept,
 * and every line, a torn last one included, ends with `\n`, so a later append never lands
 * on a fragment (W1).
 */
export function serializeDocumentLines(doc: ParsedDocument): string[] {
  const parts: string[] = new Array(doc.lines.length);
  for (let i = 0; i < doc.lines.length; i++) {
    const l = doc.lines[i] as DocLine;
    parts[i] = l.value._tag === "Right" ? serializeRecord(l.value.right) : `${l.raw}\n`;
  }
  return parts;
}

/**
 * A whole document as text; see {@link serializeDocumentLines}. For a file we wrote (no blank
 * lines, ending in `\n`), `serializeDocument(parseJsonl(text)) === text` (invariant I5).
 */
export function serializeDocument(doc: ParsedDocument): string {
  return serializeDocumentLines(doc).join("");
}

/** Fields of a new header; see {@link createHeader}. */
export interface CreateHeaderOptions {
  /** Session id (SPEC §1.4). */
  id: string;
  /** Creation time, ISO-8601 UTC with milliseconds. */
  timestamp: string;
  /** Absolute working directory. */
  cwd: string;
  /** Path of the session this one was forked or branched from; left out when undefined. */
  parentSession?: string | undefined;
  /** Format version; defaults to {@link CURRENT_SESSION_VERSION}. */
  version?: number | undefined;
}

/**
 * A new header with the key order the reference writes: `type, version, id, timestamp, cwd,
 * parentSession` (SPEC §2.2). `parentSession` is left out when undefined, so the in-memory
 * value is JSON-equal to the line written.
 */
export function createHeader(options: CreateHeaderOptions): SessionHeader {
  const header: SessionHeader = {
    type: "session",
    version: options.version ?? CURRENT_SESSION_VERSION,
    id: options.id,
    timestamp: options.timestamp,
    cwd: options.cwd,
  };
  if (options.parentSession !== undefined) header.parentSession = options.parentSession;
  return header;
}
