/**
 * The groupings behind `usage --by model|day|session`. All sums come from
 * `@pi-sessions/plugins` (`computeUsageTotals`, `computeSessionsUsageTotals`); this module only
 * decides which records go into which group, so the CLI never adds usage up on its own.
 */
import type { SessionEntry, SessionHeader } from "@pi-sessions/core";
import {
  computeSessionsUsageTotals,
  computeUsageTotals,
  emptyUsageTotals,
  type SessionsUsageTotals,
  type SessionUsageInput,
  type UsageTotals,
  usageRecordOf,
} from "@pi-sessions/plugins";

/** How `--by` groups records. */
export type UsageGrouping = "model" | "day" | "session";

/** The groupings `--by` accepts, in help order. */
export const USAGE_GROUPINGS: readonly UsageGrouping[] = ["model", "day", "session"];

/** One group of a single session: its whole-tree and current-branch totals. */
export interface SessionUsageGroup {
  readonly key: string;
  readonly tree: UsageTotals;
  readonly branch: UsageTotals;
}

/** One group of a directory total (forked copies counted once). */
export interface DirectoryUsageGroup {
  readonly key: string;
  readonly totals: UsageTotals;
  /** `--by session` only: the file's session id, parent and own (copies included) totals. */
  readonly sessionId?: string | undefined;
  readonly parentSession?: string | undefined;
  readonly own?: UsageTotals;
  readonly copiedRecords?: number;
}

/**
 * The UTC day (`YYYY-MM-DD`) an entry was written, from its `timestamp`; `unknown` when that
 * is missing or not a date. The entry time, not the message's, because copies of an entry in
 * forked files keep it, so a copy always falls on the same day as its original.
 */
export function dayOf(entry: SessionEntry): string {
  const raw: unknown = (entry as { timestamp?: unknown }).timestamp;
  const ms = typeof raw === "string" ? Date.parse(raw) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : "unknown";
}

/** Entries that carry a usage record (what a usage total needs from a file). */
export function usageEntries(entries: readonly SessionEntry[]): SessionEntry[] {
  return entries.filter((e) => usageRecordOf(e) !== undefined);
}

/** Groups keyed by `keyOf`, keys sorted (days ascending; others alphabetically). */
function partition<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Groups of one session. `model` splits the totals' own `byModel`; `day` sums each day's
 * records of the tree and of the branch separately; `session` is the session itself.
 */
export function sessionGroups(
  key: string,
  entries: readonly SessionEntry[],
  branch: readonly SessionEntry[],
  by: UsageGrouping,
): SessionUsageGroup[] {
  const totals = computeUsageTotals(entries, null).tree;
  const branchTotals = computeUsageTotals(branch, null).tree;
  if (by === "session") return [{ key, tree: totals, branch: branchTotals }];
  if (by === "model") {
    return Object.keys(totals.byModel)
      .sort()
      .map((model) => ({
        key: model,
        tree: pick(totals, model),
        branch: pick(branchTotals, model),
      }));
  }
  const treeDays = partition(usageEntries(entries), dayOf);
  const branchDays = partition(usageEntries(branch), dayOf);
  return [...treeDays].map(([day, dayEntries]) => ({
    key: day,
    tree: computeUsageTotals(dayEntries, null).tree,
    branch: computeUsageTotals(branchDays.get(day) ?? [], null).tree,
  }));
}

/** The `byModel` item of `totals` as totals of its own (with a one-key breakdown). */
function pick(totals: UsageTotals, model: string): UsageTotals {
  const sums = totals.byModel[model];
  return sums === undefined ? emptyUsageTotals() : { ...sums, byModel: { [model]: sums } };
}

/** One session file as `computeSessionsUsageTotals` takes it. */
export interface DirectorySession {
  readonly path: string;
  readonly header: SessionHeader | null;
  /** Entries with usage records (see {@link usageEntries}); other entries never count. */
  readonly entries: readonly SessionEntry[];
}

/** Groups of a directory: the fork-aware totals split by model, day or session. */
export function directoryGroups(
  sessions: readonly DirectorySession[],
  all: SessionsUsageTotals,
  by: UsageGrouping,
): DirectoryUsageGroup[] {
  if (by === "session") {
    return all.sessions.map((s) => ({
      key: s.path ?? "?",
      totals: s.unique,
      sessionId: s.sessionId,
      parentSession: s.parentSession,
      own: s.own,
      copiedRecords: s.copiedRecords,
    }));
  }
  if (by === "model") {
    return Object.keys(all.total.byModel)
      .sort()
      .map((model) => ({ key: model, totals: pick(all.total, model) }));
  }
  // Per day: each file cut into its days, then the fork-aware sum per day. A copy has its
  // original's timestamp, so it lands in the same day's sum and is still recognised there.
  const days = new Map<string, SessionUsageInput[]>();
  for (const s of sessions) {
    for (const [day, entries] of partition(s.entries, dayOf)) {
      const list = days.get(day) ?? [];
      list.push({ path: s.path, header: s.header, entries });
      days.set(day, list);
    }
  }
  return [...days.keys()].sort().map((day) => ({
    key: day,
    totals: computeSessionsUsageTotals(days.get(day) ?? []).total,
  }));
}
