/**
 * One-shot usage totals of a session: the whole tree and one branch.
 */
import {
  EntryNotFoundError,
  type FileEntry,
  replayProjection,
  type SessionEntry,
  walkPath,
} from "@pi-sessions/core";
import { USAGE_TOTALS_PROJECTION_NAME } from "./usage-name.js";
import {
  branchUsageTotals,
  type UsageTotalsState,
  usageDiagnostics,
  usageTotals,
} from "./usage-projection.js";
import type { UsageDiagnostic } from "./usage-records.js";
import type { UsageTotals } from "./usage-sums.js";

/** Totals of a whole session file and of one branch of it. */
export interface UsageTotalsResult {
  /** Every usage record of the file, all branches. */
  readonly tree: UsageTotals;
  /** The records on the path root → {@link UsageTotalsResult.leafId}. */
  readonly branch: UsageTotals;
  /** The leaf the branch totals were taken at (`null`: empty session, zero branch totals). */
  readonly leafId: string | null;
  /**
   * Negative usage fields anywhere in the file (all branches), in file order. Each such field
   * is left out of both totals; the rest of its record counts.
   */
  readonly diagnostics: readonly UsageDiagnostic[];
}

/** The read side of a session manager that {@link computeUsageTotals} needs. */
export interface UsageTotalsSession {
  getEntries(): SessionEntry[];
  getLeafId(): string | null;
  /** The path root → `fromId`; without it, paths are walked over `getEntries()`. */
  getBranch?(fromId?: string): SessionEntry[];
  /** When the manager was built with the `usageTotals` projection, its state is reused. */
  getProjectionState?<S = unknown>(name: string): S | undefined;
}

function isSession(source: unknown): source is UsageTotalsSession {
  return (
    typeof source === "object" &&
    source !== null &&
    !Array.isArray(source) &&
    typeof (source as UsageTotalsSession).getEntries === "function"
  );
}

/** Entries without the header record (a `loadEntriesFromFile` result may start with it). */
function entriesOnly(records: readonly FileEntry[]): SessionEntry[] {
  return records.filter(
    (r): r is SessionEntry => (r as { type?: unknown } | null)?.type !== "session",
  );
}

/**
 * Paths over an entry list as a loaded session answers them: the last entry with an id wins
 * (SPEC W15), cycle-safe. Builds its index when first asked, so a cached answer costs nothing.
 */
function pathsOver(entries: () => readonly SessionEntry[]): (id: string) => SessionEntry[] {
  return (id) => {
    const list = entries();
    const byId = new Map<unknown, SessionEntry>();
    for (const entry of list) byId.set((entry as { id?: unknown } | null)?.id, entry);
    const leaf = byId.get(id);
    return leaf ? walkPath(leaf, (p) => byId.get(p), list.length) : [];
  };
}

function lastId(entries: readonly SessionEntry[]): string | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const id: unknown = (entries[i] as { id?: unknown } | null)?.id;
    if (typeof id === "string") return id;
  }
  return null;
}

/**
 * Usage totals of a session, `{ tree, branch }`.
 *
 * `source` is either the session's records (file order; a leading header record is skipped)
 * or a session manager. The branch is the path root → `leafId`; by default the leaf is the
 * manager's leaf, or for records the last entry (where a freshly loaded session's leaf is).
 * `null` gives zero branch totals. Throws core's `EntryNotFoundError` (`Entry <id> not found`)
 * for an id that is not in the session. See `usageRecordOf` for what counts and how records are keyed.
 */
export function computeUsageTotals(
  source: readonly FileEntry[] | UsageTotalsSession,
  leafId?: string | null,
): UsageTotalsResult {
  let state: UsageTotalsState | undefined;
  let leaf: string | null;
  let getBranch: (id: string) => readonly SessionEntry[];
  if (isSession(source)) {
    leaf = leafId === undefined ? source.getLeafId() : leafId;
    const installed = source.getProjectionState?.<UsageTotalsState>(USAGE_TOTALS_PROJECTION_NAME);
    state = installed ?? replayProjection(usageTotals, source.getEntries());
    // getBranch("") starts at no entry (it reads a falsy id as "none"), yet "" is a valid id.
    const branchOf = source.getBranch;
    getBranch =
      branchOf && leaf !== ""
        ? (id) => branchOf.call(source, id)
        : pathsOver(() => source.getEntries());
  } else {
    const entries = entriesOnly(source);
    leaf = leafId === undefined ? lastId(entries) : leafId;
    state = replayProjection(usageTotals, entries);
    getBranch = pathsOver(() => entries);
  }
  const branch = branchUsageTotals(state, leaf, getBranch);
  if (branch === undefined) throw new EntryNotFoundError(leaf as string);
  return { tree: state.tree, branch, leafId: leaf, diagnostics: usageDiagnostics(state) };
}
