import type { SessionEnv } from "../env/env.js";
import { describeNotASession, isValidHeader, resolveHeader } from "../format/header.js";
import { migrateDocument } from "../format/migrate.js";
import { type JsonRecord, type LineIssue, parseJsonl } from "../format/parse.js";
import { JsonlScanner, type JsonlVisitor } from "../format/scan.js";
import { serializeDocumentLines } from "../format/serialize.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "./diagnostics.js";
import { LineMap } from "./line-map.js";
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
  /** When migration changed the file: its new content as lines, for an atomic rewrite. */
  readonly rewrite?: readonly string[];
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
  const loader = new CurrentLoader(label);
  const scanner = new JsonlScanner(loader);
  if (scanner.push(text) && scanner.end()) {
    return loader.finish(scanner.endsWithNewline, text.length === 0);
  }
  return loadLegacy(text, env, label);
}

function notASession(label: string, reason: string): InvalidSessionError {
  return new InvalidSessionError(`Session file is not a valid pi session: ${label}`, reason);
}

/**
 * The single-pass load of a current (v3+) session, fed line by line from a
 * {@link JsonlScanner} (whole text or file chunks). It stops the scan (returns false) as soon
 * as the header turns out to need migration; the caller then takes the legacy path.
 */
export class CurrentLoader implements JsonlVisitor {
  private header: SessionHeader | null = null;
  /** Set when the header's version is below 3 (or not a number): migration is needed. */
  legacy = false;
  private readonly entries: SessionEntry[] = [];
  private readonly entryLines = new LineMap();
  private readonly diagnostics: LoadDiagnostic[] = [];

  constructor(private readonly label: string) {}

  issue(issue: LineIssue): boolean {
    this.diagnostics.push({ kind: issue.kind, line: issue.line, message: issue.message });
    return true;
  }

  record(record: JsonRecord, line: number): boolean {
    if (this.header === null) {
      if (!isValidHeader(record)) {
        throw notASession(this.label, `line ${line}: the first record is not a session header`);
      }
      this.header = record;
      // Only a numeric version ≥ 3 skips migration; anything else goes the legacy way.
      this.legacy = !(typeof record.version === "number" && record.version >= 3);
    } else if (record.type === "session") {
      this.diagnostics.push({ kind: "extra-header", line, message: EXTRA_HEADER });
    } else if (typeof record.id !== "string") {
      this.diagnostics.push({ kind: "invalid-entry", line, message: missingId(record) });
    } else {
      this.entries.push(record as unknown as SessionEntry);
      this.entryLines.push(line);
    }
    return !this.legacy;
  }

  /** The loaded session once the scan reached the end; throws if there was no header. */
  finish(endsWithNewline: boolean, empty: boolean): LoadedText {
    if (this.header === null) {
      throw notASession(this.label, empty ? "the file is empty" : "the file holds no JSON records");
    }
    return {
      header: this.header,
      entries: this.entries,
      entryLines: this.entryLines,
      migrated: false,
      diagnostics: this.diagnostics,
      needsNewline: !empty && !endsWithNewline,
    };
  }
}

/**
 * The document path for files that need migration: parse every line, migrate the records
 * in place in the document, then split them. When migration changed anything, `rewrite`
 * holds the whole migrated file as lines — records re-serialised, unparseable lines word for
 * word in their places (W4) — for the atomic rewrite a file-backed load does (W3).
 */
function loadLegacy(text: string, env: SessionEnv, label: string): LoadedText {
  const parsed = parseJsonl(text);
  const header = resolveHeader(parsed);
  if (header._tag === "Left") throw notASession(label, describeNotASession(header.left));
  const migration = migrateDocument(parsed, env);
  const doc = migration.document;
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
  // Records are migrated already; splitting them again finds nothing left to migrate.
  const split = splitRecords(records, env, lines);
  return {
    ...split,
    migrated: migration.changed,
    rewrite: migration.changed ? serializeDocumentLines(doc) : undefined,
    diagnostics: [
      ...issues,
      ...migration.diagnostics.map((d) => ({
        kind: "migration" as const,
        line: d.line,
        message: d.message,
      })),
      ...split.diagnostics,
    ],
    needsNewline: !parsed.endsWithNewline && parsed.textLength > 0,
  };
}
