/**
 * Usage totals a reader must report for a generated folder, computed from the folder's facts
 * (which records are copies of which) and the documented counting rules, never through an
 * engine's fold or usage code:
 *
 * - one record: a count that is not a finite non-negative number counts as 0; a missing, bad or
 *   negative `totalTokens` is `input + output + cacheRead + cacheWrite`; the cost is `cost.total`;
 * - which records: every record that carries usage, or assistant messages only
 *   (`records: "assistant"`);
 * - one file, whole tree: every record, every branch, exact duplicate lines twice (or once,
 *   `duplicateLines: "once"`);
 * - one file, branch: the records on the path root → leaf (last record of an id wins), once each;
 * - the folder: each record once however many files copy it (forks, branched sessions, the same
 *   file under two folders). Files are taken oldest first (header timestamp, then path); a
 *   record counts, as many times as it appears there, in the oldest file that holds it (ties:
 *   see {@link filesOldestFirst}).
 *   Per model and per day (the UTC day of the record's timestamp) split that folder total.
 */
import { type SessionEntry, walkPath } from "@pi-sessions/core";
import type { FolderFile, FolderRecord, SessionFolder } from "./folder-types.js";
import { usageSourceOf } from "./usage-source.js";

/** Summed usage. */
export interface OracleSums {
  readonly records: number;
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly totalTokens: number;
  /** Sum of `cost.total`. */
  readonly cost: number;
}

/** Usage of one file. */
export interface FileUsage {
  /** Every record of the file (its whole tree, duplicates included). */
  readonly own: OracleSums;
  /** The records the folder total counts in this file (copies of older files' records removed). */
  readonly unique: OracleSums;
  /** The records on the path root → the file's leaf. */
  readonly branch: OracleSums;
  /** How many of the file's usage records are counted in an older file. */
  readonly copies: number;
}

/** What {@link usageOracle} gives. */
export interface FolderUsage {
  /** The folder: each record once. */
  readonly total: OracleSums;
  /** The folder total by `provider/model` key (`Tools/summaries` for unattributed usage). */
  readonly byModel: Readonly<Record<string, OracleSums>>;
  /** The folder total by UTC day (`YYYY-MM-DD`; `invalid` when the timestamp does not parse). */
  readonly byDay: Readonly<Record<string, OracleSums>>;
  /** Per file, by relative path. */
  readonly files: Readonly<Record<string, FileUsage>>;
}

/** Options of {@link usageOracle}. */
export interface UsageOracleOptions {
  /**
   * How a count written as a numeric string (`"400"`) counts: `"zero"` (default, the rule of
   * `@pi-sessions/plugins` and of pi's typed `Usage`) or `"parse"` (for a tool whose contract
   * reads it as the number).
   */
  readonly numericStrings?: "zero" | "parse";
  /**
   * Which records carry usage: `"all"` (default: assistant messages, `usage` entries, tool
   * results, compactions, branch summaries; see {@link usageSourceOf}) or `"assistant"`
   * (assistant messages only, the contract of most usage counters: one record per API call).
   */
  readonly records?: "all" | "assistant";
  /**
   * How an exact duplicate of a line counts in a file's whole tree: `"both"` (default, as
   * every line of `getEntries()` is a record) or `"once"` (a repeated write of one API call).
   */
  readonly duplicateLines?: "both" | "once";
}

/** The usage a record carries under `options` (see {@link UsageOracleOptions.records}). */
function sourceOf(entry: unknown, options: UsageOracleOptions) {
  const source = usageSourceOf(entry);
  if (!source || options.records !== "assistant") return source;
  const m = (entry as { type?: unknown; message?: { role?: unknown } }).message;
  const assistant = (entry as { type?: unknown }).type === "message" && m?.role === "assistant";
  return assistant ? source : undefined;
}

/** No usage. */
export const ZERO_SUMS: OracleSums = Object.freeze({
  records: 0,
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: 0,
});

function count(value: unknown, options: UsageOracleOptions): number | undefined {
  const n =
    typeof value === "string" && options.numericStrings === "parse" && value.trim() !== ""
      ? Number(value)
      : value;
  return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** One record's usage as counted (rules in the module note). */
export function recordSums(
  usage: Record<string, unknown>,
  options: UsageOracleOptions = {},
): OracleSums {
  const input = count(usage.input, options) ?? 0;
  const output = count(usage.output, options) ?? 0;
  const cacheRead = count(usage.cacheRead, options) ?? 0;
  const cacheWrite = count(usage.cacheWrite, options) ?? 0;
  const cost = usage.cost as Record<string, unknown> | null | undefined;
  return {
    records: 1,
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: count(usage.totalTokens, options) ?? input + output + cacheRead + cacheWrite,
    cost: (typeof cost === "object" && cost !== null ? count(cost.total, options) : 0) ?? 0,
  };
}

/** `a + b`. */
export function addSums(a: OracleSums, b: OracleSums): OracleSums {
  return {
    records: a.records + b.records,
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    totalTokens: a.totalTokens + b.totalTokens,
    cost: a.cost + b.cost,
  };
}

/**
 * The fields where `actual` differs from `expected`: tokens exactly while they are safe
 * integers, cost and tokens beyond 2^53 (`big-integers`) within 1e-9 relative, as sums of
 * doubles depend on their order. Empty when they agree.
 */
export function diffSums(expected: OracleSums, actual: Partial<OracleSums>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(ZERO_SUMS) as (keyof OracleSums)[]) {
    const a = actual[k];
    if (a === undefined) continue;
    const e = expected[k];
    const exact = k !== "cost" && Number.isSafeInteger(e) && Number.isSafeInteger(a);
    const same = exact ? a === e : Math.abs(a - e) <= 1e-9 * Math.max(1, Math.abs(e));
    if (!same) out.push(`${k}: expected ${e}, got ${a}`);
  }
  return out;
}

/**
 * Files oldest first: header timestamp, then path, both with `localeCompare` (the order
 * `@pi-sessions/plugins` documents; ties only decide which of two equally old files holding
 * the same records — a file and its copy under another folder — the records count in).
 */
export function filesOldestFirst(folder: SessionFolder): FolderFile[] {
  const ts = (f: FolderFile) => (typeof f.header?.timestamp === "string" ? f.header.timestamp : "");
  return [...folder.files].sort(
    (a, b) => ts(a).localeCompare(ts(b)) || a.path.localeCompare(b.path),
  );
}

/** The records on the path root → the file's leaf (a v1 file is one line: all its records). */
export function branchRecords(file: FolderFile): FolderRecord[] {
  const version = file.header?.version;
  if (version === undefined || version === 1) return [...file.records];
  const byId = new Map<string, FolderRecord>();
  for (const r of file.records) if (typeof r.entry.id === "string") byId.set(r.entry.id, r);
  const leaf = file.leafId === null ? undefined : byId.get(file.leafId);
  if (!leaf) return [];
  const asEntry = (r: FolderRecord) => r.entry as unknown as SessionEntry;
  const recordOf = new Map([...byId.values()].map((r) => [asEntry(r), r] as const));
  const path = walkPath(
    asEntry(leaf),
    (id) => {
      const r = byId.get(id);
      return r ? asEntry(r) : undefined;
    },
    file.records.length,
  );
  return path.map((e) => recordOf.get(e) as FolderRecord);
}

function sumOf(records: readonly FolderRecord[], options: UsageOracleOptions): OracleSums {
  let sums = ZERO_SUMS;
  for (const r of records) {
    const source = sourceOf(r.entry, options);
    if (source) sums = addSums(sums, recordSums(source.usage, options));
  }
  return sums;
}

/** A file's records, an exact duplicate line (same origin, next to it) once under "once". */
function recordsOf(file: FolderFile, options: UsageOracleOptions): readonly FolderRecord[] {
  if (options.duplicateLines !== "once") return file.records;
  return file.records.filter((r, i) => file.records[i - 1]?.origin !== r.origin);
}

function dayOf(timestamp: unknown): string {
  const ms = typeof timestamp === "string" ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(ms) ? "invalid" : new Date(ms).toISOString().slice(0, 10);
}

function addTo(map: Record<string, OracleSums>, key: string, sums: OracleSums): void {
  map[key] = addSums(map[key] ?? ZERO_SUMS, sums);
}

/** The usage totals a reader must report for `folder` (rules in the module note). */
export function usageOracle(folder: SessionFolder, options: UsageOracleOptions = {}): FolderUsage {
  const firstFile = new Map<string, string>();
  for (const f of filesOldestFirst(folder)) {
    for (const r of f.records) if (!firstFile.has(r.origin)) firstFile.set(r.origin, f.path);
  }
  let total = ZERO_SUMS;
  const byModel: Record<string, OracleSums> = {};
  const byDay: Record<string, OracleSums> = {};
  const files: Record<string, FileUsage> = {};
  for (const f of filesOldestFirst(folder)) {
    let unique = ZERO_SUMS;
    let copies = 0;
    const records = recordsOf(f, options);
    for (const r of records) {
      const source = sourceOf(r.entry, options);
      if (!source) continue;
      if (firstFile.get(r.origin) !== f.path) {
        copies++;
        continue;
      }
      const sums = recordSums(source.usage, options);
      unique = addSums(unique, sums);
      total = addSums(total, sums);
      addTo(byModel, source.key, sums);
      addTo(byDay, dayOf(r.entry.timestamp), sums);
    }
    files[f.path] = {
      own: sumOf(records, options),
      unique,
      branch: sumOf(branchRecords(f), options),
      copies,
    };
  }
  return { total, byModel, byDay, files };
}
