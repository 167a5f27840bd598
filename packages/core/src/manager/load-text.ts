import type { SessionEnv } from "../env/env.js";
import { describeNotASession, resolveHeader } from "../format/header.js";
import { type JsonRecord, parseJsonl } from "../format/parse.js";
import type { LoadDiagnostic } from "./diagnostics.js";
import { type SplitRecords, splitRecords } from "./load-records.js";

/** Thrown when text or a file is not a pi session at all (no valid header first). */
export class InvalidSessionError extends Error {
  constructor(
    message: string,
    /** Why, in words (empty, no records, first record not a header). */
    readonly reason: string,
  ) {
    super(message);
    this.name = "InvalidSessionError";
  }
}

/** A session loaded from JSONL text: records split, plus every malformed line reported. */
export interface LoadedText extends SplitRecords {
  /** Whether the text ended without `\n` (the next append must write one first, W1). */
  readonly needsNewline: boolean;
}

/**
 * Parses and migrates session text (SPEC §6.5 steps 2–6, without IO). Malformed and
 * non-object lines become diagnostics with line numbers (W5, W6); garbage before the header
 * is skipped. Throws {@link InvalidSessionError} when there is no valid header first, with
 * `label` (a path, usually) in the reference's message. The records are freshly parsed, so
 * they are owned without copying.
 */
export function loadText(text: string, env: SessionEnv, label = "<text>"): LoadedText {
  const doc = parseJsonl(text);
  const header = resolveHeader(doc);
  if (header._tag === "Left") {
    throw new InvalidSessionError(
      `Session file is not a valid pi session: ${label}`,
      describeNotASession(header.left),
    );
  }
  const records: JsonRecord[] = [];
  const lines: number[] = [];
  const issues: LoadDiagnostic[] = [];
  for (const l of doc.lines) {
    if (l.value._tag === "Right") {
      records.push(l.value.right);
      lines.push(l.line);
    } else {
      issues.push({ kind: l.value.left.kind, line: l.line, message: l.value.left.message });
    }
  }
  const split = splitRecords(records, env, lines);
  return {
    ...split,
    diagnostics: [...issues, ...split.diagnostics],
    needsNewline: !doc.endsWithNewline && doc.textLength > 0,
  };
}
