/**
 * Legacy session files for migration tests (SPEC §2.3–§2.4; W3 atomic rewrite, W4 unparseable lines
 * kept, W10–W12 ids and parents kept, no collisions, forks migrated): version 1 (linear, no ids,
 * `firstKeptEntryIndex`) and version 2 (a tree, with `hookMessage` roles), optionally without a
 * `version` key or with garbage lines a rewrite must keep word for word.
 */
import type { EntryTypeTable } from "@pi-sessions/core";
import fc from "fast-check";
import { ENTRY_KINDS } from "./entry-specs.js";
import { garbageLineArb, isInvalidJsonLine } from "./garbage.js";
import { type LegacyCompaction, v1RecordsArb } from "./legacy-v1.js";
import { sessionLogArb } from "./session-log.js";

export type { LegacyCompaction } from "./legacy-v1.js";

/** A legacy session file and what migrating it must give. */
export interface LegacySession {
  readonly version: 1 | 2;
  /** The parsed records in file order, header first (garbage lines are not records). */
  readonly records: Record<string, unknown>[];
  /** The file text: the records, with any garbage lines among them. */
  readonly jsonl: string;
  /** Lines that are not JSON, in file order; a migration rewrite keeps them verbatim (W4). */
  readonly garbageLines: readonly string[];
  /** v1: where each compaction's `firstKeptEntryIndex` points. Empty for v2. */
  readonly compactions: readonly LegacyCompaction[];
  /** Indexes in `records` of the messages with role `hookMessage` (renamed `custom` in v3). */
  readonly hookMessages: readonly number[];
  /**
   * v2 only: the records migration must produce (JSON-equal, key order included): header
   * `version: 3` and `hookMessage` → `custom`, ids and parents kept, even when the header has
   * no `version` (W10: still a tree, not flattened). Undefined for v1, whose new ids are random.
   */
  readonly expected?: readonly Record<string, unknown>[];
}

/** Options of {@link legacySessionArb}. */
export interface LegacyOptions {
  /** Which version to generate (default `"any"`). */
  version?: 1 | 2 | "any";
  /** Most entries (default 20). */
  maxEntries?: number;
  /** Insert up to two garbage lines after the header (default false). */
  garbageLines?: boolean;
  /**
   * v2 files sometimes lack the `version` key (a "version-less v2" file, W10). Default false.
   * Such a file is read as v1: a conforming migration keeps its ids and parents.
   */
  versionless?: boolean;
}

/**
 * Whether a v2 file can hold each built-in entry type: all but the R1.6 additions (`satisfies`:
 * a new type must say whether legacy files are generated with it).
 */
const IN_V2_FILES = {
  message: true,
  thinking_level_change: true,
  model_change: true,
  compaction: true,
  branch_summary: true,
  custom: true,
  custom_message: true,
  label: true,
  session_info: true,
  usage: false,
  context_edit: false,
} satisfies EntryTypeTable<boolean>;

/** Entry types and roles a v2 file can hold. */
const V2_KINDS = ENTRY_KINDS.filter((kind) => IN_V2_FILES[kind]);
const V2_ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom"] as const;

interface Records {
  readonly version: 1 | 2;
  readonly records: Record<string, unknown>[];
  readonly compactions: readonly LegacyCompaction[];
  readonly hookMessages: readonly number[];
  readonly expected?: Record<string, unknown>[];
}

/** Version 2: a v3 tree with version 2 (or none) and `custom` messages spelled `hookMessage`. */
function v2RecordsArb(options: LegacyOptions): fc.Arbitrary<Records> {
  const logOf = (version: 2 | null) =>
    sessionLogArb({
      kinds: V2_KINDS,
      roles: V2_ROLES,
      maxEntries: options.maxEntries ?? 20,
      header: { version, parentSession: false },
    });
  const logs = options.versionless ? fc.oneof(logOf(2), logOf(null)) : logOf(2);
  return logs.map((log) => {
    const header = log.header as unknown as Record<string, unknown>;
    const hookMessages: number[] = [];
    const entries = log.entries.map((e, i) => {
      if (e.type !== "message" || e.message.role !== "custom") return e;
      hookMessages.push(i + 1);
      return { ...e, message: { ...e.message, role: "hookMessage" } };
    });
    const expected = [{ ...header, version: 3 }, ...log.entries] as Record<string, unknown>[];
    return {
      version: 2,
      records: [header, ...entries] as Record<string, unknown>[],
      compactions: [],
      hookMessages,
      expected,
    };
  });
}

/** Inserts garbage lines (after the header) into the text of `records`. */
function withGarbage(records: readonly unknown[], garbage: readonly [number, string][]): string {
  const lines = records.map((r) => JSON.stringify(r));
  for (const [at, raw] of garbage) lines.splice(1 + (at % lines.length), 0, raw);
  return lines.map((l) => `${l}\n`).join("");
}

/** A legacy (v1 or v2) session file; see {@link LegacySession}. */
export function legacySessionArb(options: LegacyOptions = {}): fc.Arbitrary<LegacySession> {
  const version = options.version ?? "any";
  const v1 = v1RecordsArb(options.maxEntries ?? 20).map(
    (r): Records => ({ version: 1, ...r, hookMessages: [] }),
  );
  const v2 = v2RecordsArb(options);
  const records = version === 1 ? v1 : version === 2 ? v2 : fc.oneof(v1, v2);
  const garbage = options.garbageLines
    ? fc.array(fc.tuple(fc.nat(), garbageLineArb), { maxLength: 2 })
    : fc.constant([] as [number, string][]);
  return fc.tuple(records, garbage).map(([r, g]) => {
    const jsonl = withGarbage(r.records, g);
    return { ...r, jsonl, garbageLines: jsonl.split("\n").filter(isInvalidJsonLine) };
  });
}
