/**
 * Usage totals over several session files (a directory) without counting forked copies twice.
 *
 * `forkFrom` copies every record of the source into the new file and `createBranchedSession`
 * copies the path (SPEC §9, §10.1). Both keep each copied entry's id, type, timestamp and
 * usage object; only `parentId` may change. So a usage record is identified across files by
 * the stable key (entry id, entry type, entry timestamp, `provider/model` key, the usage
 * object's JSON). Rule: within one file every record counts; across files, a record whose key
 * already counted in an earlier file is a copy and is skipped. Files are taken oldest first
 * (header timestamp, then path), so a parent counts its own records before its forks see them.
 * Entries without a string id (unmigrated v1 records) are never taken for copies.
 */
import type { FileEntry, SessionEntry, SessionHeader } from "@pi-sessions/core";
import { asString } from "@pi-sessions/core/internal";
import { type UsageDiagnostic, usageRecordOf } from "./usage-records.js";
import { addToTotals, emptyUsageTotals, type UsageTotals } from "./usage-sums.js";

/** One session file's records, as read (e.g. by `loadEntriesFromFile`). */
export interface SessionUsageInput {
  /** Where the records came from; used for ordering ties and in the result. */
  readonly path?: string;
  /** The header; taken from `entries[0]` when omitted and that record is a header. */
  readonly header?: SessionHeader | null;
  /** The records in file order (a leading header is allowed and skipped). */
  readonly entries: readonly FileEntry[];
}

/** Per-file result of {@link computeSessionsUsageTotals}. */
export interface SessionUsageTotals {
  readonly path: string | undefined;
  readonly sessionId: string | undefined;
  readonly parentSession: string | undefined;
  /** Every record of this file (what `computeUsageTotals(...).tree` gives for it alone). */
  readonly own: UsageTotals;
  /** The records counted for this file in the directory total (copies removed). */
  readonly unique: UsageTotals;
  /** How many of this file's records were copies of records counted in an earlier file. */
  readonly copiedRecords: number;
}

/** A diagnostic of a directory total, with the file it came from. */
export interface SessionsUsageDiagnostic extends UsageDiagnostic {
  readonly path: string | undefined;
}

/** Directory-wide totals. */
export interface SessionsUsageTotals {
  /** Sum of every file's `unique` totals. */
  readonly total: UsageTotals;
  /** One item per input, oldest session first. */
  readonly sessions: readonly SessionUsageTotals[];
  /**
   * Negative usage fields of the records counted in `total` (left out of it), oldest file
   * first. A copy in a fork is not counted, so its diagnostic is reported once, at the original.
   */
  readonly diagnostics: readonly SessionsUsageDiagnostic[];
}

function headerOf(input: SessionUsageInput): SessionHeader | undefined {
  if (input.header) return input.header;
  const first = input.entries[0] as { type?: unknown } | undefined;
  return first?.type === "session" ? (first as SessionHeader) : undefined;
}

/** JSON that never throws (cycles or BigInt cannot come from a file, but callers may build). */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "\u0000unserializable";
  }
}

function usageKey(entry: SessionEntry, recordKey: string): string | undefined {
  const id = asString((entry as { id?: unknown }).id);
  if (id === undefined) return undefined;
  const raw = entry as unknown as Record<string, unknown>;
  const usage =
    raw.type === "message" ? (raw.message as Record<string, unknown> | null)?.usage : raw.usage;
  return [id, raw.type, asString(raw.timestamp) ?? "", recordKey, safeJson(usage)].join("\u0000");
}

/**
 * Usage totals over several sessions, each copied record counted once (rule in the module
 * note). Pure: reading the files is the caller's job (`loadEntriesFromFile` reads without
 * writing; records of older files should be migrated first so they carry ids).
 */
export function computeSessionsUsageTotals(
  sessions: Iterable<SessionUsageInput>,
): SessionsUsageTotals {
  const ordered = [...sessions]
    .map((input, index) => ({ input, index, header: headerOf(input) }))
    .sort(
      (a, b) =>
        (asString(a.header?.timestamp) ?? "").localeCompare(asString(b.header?.timestamp) ?? "") ||
        (a.input.path ?? "").localeCompare(b.input.path ?? "") ||
        a.index - b.index,
    );
  const counted = new Set<string>();
  let total = emptyUsageTotals();
  const results: SessionUsageTotals[] = [];
  const diagnostics: SessionsUsageDiagnostic[] = [];
  for (const { input, header } of ordered) {
    let own = emptyUsageTotals();
    let unique = emptyUsageTotals();
    let copiedRecords = 0;
    const keysHere: string[] = [];
    for (const record of input.entries) {
      if ((record as { type?: unknown } | null)?.type === "session") continue;
      const entry = record as SessionEntry;
      const usage = usageRecordOf(entry);
      if (!usage) continue;
      own = addToTotals(own, usage.key, usage.usage);
      const key = usageKey(entry, usage.key);
      if (key !== undefined && counted.has(key)) {
        copiedRecords++;
        continue;
      }
      if (key !== undefined) keysHere.push(key);
      unique = addToTotals(unique, usage.key, usage.usage);
      for (const d of usage.diagnostics) diagnostics.push({ ...d, path: input.path });
      total = addToTotals(total, usage.key, usage.usage);
    }
    // Registered after the file: records repeated inside one file all count (see the rule).
    for (const key of keysHere) counted.add(key);
    results.push({
      path: input.path,
      sessionId: asString(header?.id),
      parentSession: asString(header?.parentSession),
      own,
      unique,
      copiedRecords,
    });
  }
  return { total, sessions: results, diagnostics };
}
