import type { SessionEnv } from "../env/env.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "../state/diagnostics.js";
import { LineMap } from "./line-map.js";
import { migrateRecords } from "./migrate.js";
import type { JsonRecord } from "./parse.js";
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
  /** Line number of each entry, when known (parallel to `entries`), for diagnostics. */
  readonly entryLines?: LineMap;
}

/**
 * Sorts records, in file order, by the record rules: the first `session` record becomes the
 * header, entries with a string id join the list (with their lines), and every other record
 * is reported into `diagnostics` — it stays in the file, but not in the tree.
 */
export class RecordSplitter {
  header: SessionHeader | null = null;
  readonly entries: SessionEntry[] = [];
  readonly entryLines = new LineMap();

  constructor(readonly diagnostics: LoadDiagnostic[]) {}

  /** Takes the next record, read from `line` when the records came from text. */
  push(record: JsonRecord, line?: number): void {
    const kind = recordKind(record, this.header !== null);
    if (kind === "entry") {
      this.entries.push(record as unknown as SessionEntry);
      if (line !== undefined) this.entryLines.push(line);
    } else if (kind === "header") this.header = record as unknown as SessionHeader;
    else this.diagnostics.push(recordProblem(kind, record, line));
  }
}

/**
 * Migrates records to v3 (SPEC §2.4) and splits them by the record rules (see
 * {@link RecordSplitter}); the header is the first `session` record wherever it is. `lines`
 * gives each record's file line, for diagnostics. Takes ownership of `records`.
 */
export function splitRecords(
  records: Record<string, unknown>[],
  env: SessionEnv,
  lines?: readonly number[],
): SplitRecords {
  const migration = migrateRecords(records, env);
  const diagnostics: LoadDiagnostic[] = migration.diagnostics.map((d) => ({
    kind: "migration",
    message: d.message,
  }));
  const split = new RecordSplitter(diagnostics);
  const migrated = migration.records as unknown as JsonRecord[];
  for (let i = 0; i < migrated.length; i++) split.push(migrated[i] as JsonRecord, lines?.[i]);
  return {
    header: split.header,
    entries: split.entries,
    entryLines: lines ? split.entryLines : undefined,
    migrated: migration.changed,
    diagnostics,
  };
}
