import type { SessionEnv } from "../env/env.js";
import { loadedEntry } from "../schema/record-fields.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "../state/diagnostics.js";
import { LineMap } from "./line-map.js";
import { type MigrationDiagnostic, migrateDocument, migrateRecords } from "./migrate.js";
import {
  DocumentBuilder,
  documentIssues,
  JsonlScanner,
  type JsonlVisitor,
  type JsonRecord,
  type LineIssue,
  type ParsedDocument,
} from "./parse.js";
import {
  describeNotASession,
  headerVersion,
  isCurrentHeader,
  isValidHeader,
  type NotASession,
  recordKind,
  recordProblem,
} from "./record-rules.js";
import { serializeDocumentLines } from "./serialize.js";

/** Thrown when text or a file is not a pi session at all (no valid header first). */
export class InvalidSessionError extends Error {
  constructor(
    message: string,
    /** Why, in words (empty, no records, first record not a header). */
    readonly reason: string,
    /** Why, as a kind: an empty file (which a writing load initialises) is told apart. */
    readonly kind: NotASession["kind"] = "invalid-header",
  ) {
    super(message);
    this.name = "InvalidSessionError";
  }
}

/** Records split into the header and the entries the tree is built from. */
export interface SplitRecords {
  /** The adopted header, or null when the records had none. */
  readonly header: SessionHeader | null;
  /** Entries with a string id, migrated, in file order. */
  readonly entries: SessionEntry[];
  /** Whether migration changed anything (a file-backed load then rewrites the file). */
  readonly migrated: boolean;
  readonly diagnostics: LoadDiagnostic[];
  /** Line number of each entry (parallel to `entries`) when the records came from text. */
  readonly entryLines?: LineMap;
}

/** Sorts records by the record rules: the header, entries (with lines), reports of the rest. */
export class RecordSplitter {
  header: SessionHeader | null = null;
  readonly entries: SessionEntry[] = [];
  readonly entryLines = new LineMap();
  readonly diagnostics: LoadDiagnostic[] = [];

  /** Takes the next record, read from `line` when the records came from text. */
  push(record: JsonRecord, line?: number): void {
    const kind = recordKind(record, this.header !== null);
    if (kind === "entry") {
      this.entries.push(loadedEntry(record));
      if (line !== undefined) this.entryLines.push(line);
    } else if (kind === "header") this.header = record as unknown as SessionHeader;
    else this.diagnostics.push(recordProblem(kind, record, line));
  }

  /** Reports a malformed line (W5). */
  issue({ kind, line, message }: LineIssue): void {
    this.diagnostics.push({ kind, line, message });
  }

  /** Reports what migration could not do as the data asked. */
  migration(reports: readonly MigrationDiagnostic[]): void {
    for (const d of reports)
      this.diagnostics.push({ kind: "migration", line: d.line, message: d.message });
  }

  /** What was split so far; `migrated` says whether migration changed the records. */
  result(migrated: boolean): SplitRecords {
    const { header, entries, entryLines, diagnostics } = this;
    return { header, entries, entryLines, migrated, diagnostics };
  }
}

/** Migrates records to v3 (SPEC §2.4) and splits them; takes ownership of `records`. */
export function splitRecords(records: Record<string, unknown>[], env: SessionEnv): SplitRecords {
  const migration = migrateRecords(records, env);
  const split = new RecordSplitter();
  split.migration(migration.diagnostics);
  for (const record of migration.records) split.push(record as unknown as JsonRecord);
  return split.result(migration.changed);
}

/** A session loaded from JSONL text. */
export interface LoadedText extends SplitRecords {
  /** The header's version as the file declares it (before migration; see `headerVersion`). */
  readonly version: number;
  /** The header's 1-based line (damaged lines may precede it). */
  readonly headerLine: number;
  /** When migration changed the file: its new content as lines, for an atomic rewrite. */
  readonly rewrite?: readonly string[];
  /** Whether the text ended without `\n` (the next append must write one first, W1). */
  readonly needsNewline: boolean;
}

/**
 * Parses and migrates session text (SPEC §6.5 steps 2–6, without IO). Throws
 * {@link InvalidSessionError} without a valid header first, `label` in the reference's message.
 */
export function loadText(text: string, env: SessionEnv, label = "<text>"): LoadedText {
  const loader = new SessionLoader(env, label);
  loader.push(text);
  return loader.finish();
}

/** The error a load throws for text that is not a pi session (the reference's message, SPEC §5.5). */
export function notASession(label: string, reason: NotASession): InvalidSessionError {
  const message = `Session file is not a valid pi session: ${label}`;
  return new InvalidSessionError(message, describeNotASession(reason), reason.kind);
}

/**
 * The load of a session, fed text in pieces of any size, one pass whatever the version; the
 * first record must be a valid header. For a v3+ file the entries are split as lines go by,
 * keeping nothing else; once the header asks for migration, every line (and the damaged ones
 * before it) is kept in a document instead, so migration and the rewrite need no second read.
 */
export class SessionLoader implements JsonlVisitor {
  private readonly scanner = new JsonlScanner(this);
  private readonly split = new RecordSplitter();
  /** Damaged lines before the header, which a legacy file's rewrite puts back (W4). */
  private readonly beforeHeader: LineIssue[] = [];
  /** The document of a legacy file, from its header on. */
  private legacy: DocumentBuilder | undefined;
  private headerLine = 0;
  /** UTF-16 units fed so far: none at all tells an empty file apart (SPEC §6.5). */
  private length = 0;

  constructor(
    private readonly env: SessionEnv,
    private readonly label: string,
  ) {}

  /** Feeds the next piece of text. */
  push(text: string): void {
    this.length += text.length;
    this.scanner.push(text);
  }

  /**
   * Ends a line the reader skipped unread, longer than its `limit` (see
   * {@link JsonlScanner.skipLine}); it counts as input, so a file of one such line is not empty.
   */
  skipLine(bytes: number, limit: number, endsWithNewline: boolean): boolean {
    this.length += 1;
    return this.scanner.skipLine(bytes, limit, endsWithNewline);
  }

  issue(issue: LineIssue): boolean {
    if (this.legacy !== undefined) return this.legacy.issue(issue);
    if (this.split.header === null) this.beforeHeader.push(issue);
    this.split.issue(issue);
    return true;
  }

  record(record: JsonRecord, line: number, raw: string): boolean {
    if (this.legacy !== undefined) return this.legacy.record(record, line, raw);
    if (this.split.header === null) {
      if (!isValidHeader(record))
        throw notASession(this.label, { kind: "invalid-header", line, record });
      this.headerLine = line;
      if (!isCurrentHeader(record)) {
        this.legacy = new DocumentBuilder();
        for (const issue of this.beforeHeader) this.legacy.issue(issue);
        return this.legacy.record(record, line, raw);
      }
    }
    this.split.push(record, line);
    return true;
  }

  /** Ends the input and gives the loaded session; throws when there was no header. */
  finish(): LoadedText {
    this.scanner.end();
    const { headerLine, length } = this;
    const needsNewline = length > 0 && !this.scanner.endsWithNewline;
    if (this.legacy !== undefined) {
      const legacy = migrateLegacy(this.legacy.finish(this.scanner, length), this.env);
      return { ...legacy, headerLine, needsNewline };
    }
    const header = this.split.header;
    if (header === null) throw notASession(this.label, { kind: length ? "no-records" : "empty" });
    const version = headerVersion(header as unknown as JsonRecord);
    return { ...this.split.result(false), version, headerLine, needsNewline };
  }
}

/**
 * A legacy file's document, migrated and split; if migration changed anything, `rewrite` holds the
 * migrated file's lines for a file-backed load's atomic rewrite (W3: atomic; W4: unparseable lines
 * kept).
 */
function migrateLegacy(
  doc: ParsedDocument,
  env: SessionEnv,
): Omit<LoadedText, "headerLine" | "needsNewline"> {
  const migration = migrateDocument(doc, env);
  const split = new RecordSplitter();
  for (const issue of documentIssues(doc)) split.issue(issue);
  split.migration(migration.diagnostics);
  for (const l of migration.document.lines)
    if (l.value._tag === "Right") split.push(l.value.right, l.line);
  return {
    ...split.result(migration.changed),
    rewrite: migration.changed ? serializeDocumentLines(migration.document) : undefined,
    version: migration.fromVersion,
  };
}
