import type { SessionEnv } from "../env/env.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "../state/diagnostics.js";
import { LineMap } from "./line-map.js";
import { type MigrationDiagnostic, migrateRecords } from "./migrate.js";
import type { JsonRecord, LineIssue } from "./parse.js";
import { recordKind, recordProblem } from "./record-rules.js";

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

/**
 * Sorts records, in file order, by the record rules: the header, the entries (with their
 * lines), and reports of every other record, which stays in the file but not in the tree.
 */
export class RecordSplitter {
  header: SessionHeader | null = null;
  readonly entries: SessionEntry[] = [];
  readonly entryLines = new LineMap();
  readonly diagnostics: LoadDiagnostic[] = [];

  /** Takes the next record, read from `line` when the records came from text. */
  push(record: JsonRecord, line?: number): void {
    const kind = recordKind(record, this.header !== null);
    if (kind === "entry") {
      this.entries.push(record as unknown as SessionEntry);
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
