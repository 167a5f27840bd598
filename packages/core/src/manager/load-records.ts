import type { SessionEnv } from "../env/env.js";
import { migrateRecords } from "../format/migrate.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "./diagnostics.js";
import { LineMap } from "./line-map.js";

/** Records split into the header and the entries the tree is built from. */
export interface SplitRecords {
  /** The adopted header, or null when the records had none. */
  readonly header: SessionHeader | null;
  /** Entries with a string id, migrated, in file order. */
  readonly entries: SessionEntry[];
  /**
   * The record list after migration (header included), for the rewrite a migration needs;
   * left out when nothing was migrated, so a current file's load keeps no second list.
   */
  readonly records?: Record<string, unknown>[];
  /** Whether migration changed anything (a file-backed load then rewrites the file). */
  readonly migrated: boolean;
  readonly diagnostics: LoadDiagnostic[];
  /** Line number of each record, when known (parallel to `records`). */
  readonly lines?: readonly number[];
  /** Line number of each entry, when known (parallel to `entries`), for diagnostics. */
  readonly entryLines?: LineMap;
}

/** Diagnostic text for a second `session` record. */
export const EXTRA_HEADER = "a second session header; it is kept in the file but not used";

/** Diagnostic text for an entry without a string id. */
export function missingId(record: Record<string, unknown>): string {
  return `entry of type ${JSON.stringify(record.type)} has no string id; it is kept in the file but not in the tree`;
}

/**
 * Migrates records to v3 (SPEC §2.4) and splits them into header and entries. The header is
 * the first record with `type: "session"`; later `session` records and records without a
 * string id cannot join the tree, so they are reported and left out of it — kept in
 * `records` so that nothing is lost on a rewrite. Takes ownership of `records`.
 */
export function splitRecords(
  records: Record<string, unknown>[],
  env: SessionEnv,
  lines?: readonly number[],
): SplitRecords {
  const migration = migrateRecords(records, env);
  const migratedRecords = migration.records as unknown as Record<string, unknown>[];
  const diagnostics: LoadDiagnostic[] = migration.diagnostics.map((d) => ({
    kind: "migration",
    message: d.message,
  }));
  let header: SessionHeader | null = null;
  const entries: SessionEntry[] = [];
  const entryLines = new LineMap();
  for (let i = 0; i < migratedRecords.length; i++) {
    const r = migratedRecords[i] as Record<string, unknown>;
    const line = lines?.[i];
    if (r.type === "session") {
      if (header === null) {
        header = r as unknown as SessionHeader;
        continue;
      }
      diagnostics.push({ kind: "extra-header", line, message: EXTRA_HEADER });
      continue;
    }
    if (typeof r.id !== "string") {
      diagnostics.push({ kind: "invalid-entry", line, message: missingId(r) });
      continue;
    }
    entries.push(r as unknown as SessionEntry);
    if (line !== undefined) entryLines.push(line);
  }
  return {
    header,
    entries,
    entryLines: lines ? entryLines : undefined,
    records: migration.changed ? migratedRecords : undefined,
    migrated: migration.changed,
    diagnostics,
    lines,
  };
}
