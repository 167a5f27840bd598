import type { SessionEnv } from "../env/env.js";
import { describeNotASession, isValidHeader, resolveHeader } from "../format/header.js";
import { type JsonRecord, parseJsonl } from "../format/parse.js";
import { endsWithNewline, scanJsonl } from "../format/scan.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "./diagnostics.js";
import { EXTRA_HEADER, missingId, type SplitRecords, splitRecords } from "./load-records.js";

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
 *
 * A current (v3+) file takes a single streaming pass that builds the entry list directly;
 * older files take the document path, which keeps every record for migration.
 */
export function loadText(text: string, env: SessionEnv, label = "<text>"): LoadedText {
  return loadCurrent(text, label) ?? loadLegacy(text, env, label);
}

function notASession(label: string, reason: string): InvalidSessionError {
  return new InvalidSessionError(`Session file is not a valid pi session: ${label}`, reason);
}

/** The single-pass load of a file whose header says version 3 or later; undefined otherwise. */
function loadCurrent(text: string, label: string): LoadedText | undefined {
  let header: SessionHeader | null = null;
  let legacy = false;
  const entries: SessionEntry[] = [];
  const diagnostics: LoadDiagnostic[] = [];
  scanJsonl(text, {
    issue(issue) {
      diagnostics.push({ kind: issue.kind, line: issue.line, message: issue.message });
      return true;
    },
    record(record, line) {
      if (header === null) {
        if (!isValidHeader(record))
          throw notASession(label, `line ${line}: the first record is not a session header`);
        header = record;
        // Only a numeric version ≥ 3 skips migration; anything else goes the legacy way.
        legacy = !(typeof record.version === "number" && record.version >= 3);
      } else if (record.type === "session") {
        diagnostics.push({ kind: "extra-header", line, message: EXTRA_HEADER });
      } else if (typeof record.id !== "string") {
        diagnostics.push({ kind: "invalid-entry", line, message: missingId(record) });
      } else {
        entries.push(record as unknown as SessionEntry);
      }
      return !legacy;
    },
  });
  if (legacy) return undefined;
  if (header === null)
    throw notASession(
      label,
      text.length === 0 ? "the file is empty" : "the file holds no JSON records",
    );
  return {
    header,
    entries,
    migrated: false,
    diagnostics,
    needsNewline: !endsWithNewline(text),
  };
}

/** The document path: parse every line, migrate the records, then split them. */
function loadLegacy(text: string, env: SessionEnv, label: string): LoadedText {
  const doc = parseJsonl(text);
  const header = resolveHeader(doc);
  if (header._tag === "Left") throw notASession(label, describeNotASession(header.left));
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
