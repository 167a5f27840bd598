/**
 * The usage-totals projection (DESIGN rule 5): a fold of the entry log into
 * whole-file totals, plus what is needed to answer branch totals for any leaf.
 *
 * Cost follows the work (DESIGN rule 7). Per append: O(number of models) for an entry with
 * usage, O(1) otherwise; the state keeps no copy of the log (the runner's fold context
 * answers whether an id was seen, and the caller answers paths). Branch totals: the
 * projection keeps the totals of the path to the entry just folded while appends extend that
 * path, so the agent-loop case (append at the leaf, read the totals) is O(1). Any other leaf
 * costs one path lookup from the caller (O(path) for a session's `getBranch`) and an O(path)
 * sum, which is remembered, so appending on from that leaf is O(1) again. Per-entry path
 * totals are not stored: with a per-model breakdown they would cost O(models) memory per
 * entry and dominate a replay's time in garbage collection.
 *
 * Damage never changes the answer, only the speed: after a reused id (SPEC W15) every branch
 * query walks, and a cache is only used for the snapshot it was computed for, so an orphan
 * whose parent comes later is walked again.
 */
import { defineProjection, type SessionEntry } from "@pi-sessions/core";
import { usageTotalsRule } from "./usage-name.js";
import { type UsageDiagnostic, usageRecordOf } from "./usage-records.js";
import { addToTotals, emptyUsageTotals, type UsageTotals } from "./usage-sums.js";

/** Branch totals of one entry, as of one snapshot. */
interface BranchCache {
  readonly id: string;
  /** The snapshot (entry count) the totals were computed for. */
  readonly count: number;
  readonly totals: UsageTotals;
}

/**
 * The remembered last walk, shared by the snapshots of one line of appends (a cache of a
 * pure function of the snapshot, so writing it never changes an answer). `folded` counts the
 * entries the newest of those snapshots has seen: extending an older one starts a new slot,
 * or two snapshots with the same count but different entries would share a cache.
 */
interface WalkMemo {
  folded: number;
  last: BranchCache | undefined;
}

/** State of the {@link usageTotals} projection. Read it with the query functions. */
export interface UsageTotalsState {
  /** Totals over every entry of the file (all branches). */
  readonly tree: UsageTotals;
  /** Entries folded into this snapshot. */
  readonly count: number;
  /** True once an id was reused: branch queries then always walk. */
  readonly reusedIds: boolean;
  /** Branch totals at the entry folded last, when its parent's totals were known. */
  readonly leaf: BranchCache | undefined;
  /** The last walked branch, shared with the snapshots this one was extended from or to. */
  readonly memo: WalkMemo;
  /**
   * Diagnostics of every entry folded, in the first `diagnosticCount` items of a log shared
   * with the snapshots this one was extended from or to (read them with
   * {@link usageDiagnostics}). Shared so a line of appends costs O(1) each, as the memo.
   */
  readonly diagnosticLog: UsageDiagnostic[];
  readonly diagnosticCount: number;
}

/**
 * The saved JSON of a state (SPEC §14 F2), as {@link usageTotals} declares its `encode` and
 * `decode`: the state without its caches of queries.
 */
interface SavedUsage {
  readonly tree: UsageTotalsState["tree"];
  readonly count: number;
  readonly reusedIds: boolean;
  readonly leaf: UsageTotalsState["leaf"] | null;
  readonly diagnostics: readonly UsageDiagnostic[];
}

/**
 * The state as JSON; `null` when JSON cannot hold it exactly (a sum overflowed to ±Infinity):
 * such a state is refolded rather than kept wrong.
 */
function encodeUsageTotals(state: UsageTotalsState): string | null {
  let exact = true;
  const saved: SavedUsage = {
    tree: state.tree,
    count: state.count,
    reusedIds: state.reusedIds,
    leaf: state.leaf ?? null,
    diagnostics: state.diagnosticLog.slice(0, state.diagnosticCount),
  };
  const json = JSON.stringify(saved, (_key, value: unknown) => {
    if (typeof value === "number" && !Number.isFinite(value)) exact = false;
    return value;
  });
  return exact ? json : null;
}

/** The state {@link encodeUsageTotals} saved, with empty query caches. */
function decodeUsageTotals(text: string): UsageTotalsState {
  const saved = JSON.parse(text) as SavedUsage;
  return {
    tree: saved.tree,
    count: saved.count,
    reusedIds: saved.reusedIds,
    leaf: saved.leaf ?? undefined,
    memo: { folded: saved.count, last: undefined },
    diagnosticLog: [...saved.diagnostics],
    diagnosticCount: saved.diagnostics.length,
  };
}

function parentOf(entry: SessionEntry): string | null {
  const raw: unknown = (entry as { parentId?: unknown }).parentId;
  return typeof raw === "string" ? raw : null;
}

/** Cached branch totals of `id` valid for this snapshot, if any. */
function cached(state: UsageTotalsState, id: string): UsageTotals | undefined {
  if (state.reusedIds) return undefined;
  if (state.leaf?.id === id) return state.leaf.totals;
  const last = state.memo.last;
  return last?.id === id && last.count === state.count ? last.totals : undefined;
}

/**
 * Usage totals as a projection: install it with `SessionManager.inMemory(cwd, { projections:
 * [usageTotals] })` (or any fold runner) and read the state with {@link treeUsageTotals} and
 * {@link branchUsageTotals}. It declares its rule's `version` and its state's encoding, so a
 * store (the session index) keeps its state across runs and refolds one of another version.
 */
export const usageTotals = defineProjection<UsageTotalsState>({
  name: usageTotalsRule.name,
  // Read from {@link usageTotalsRule}, the one place it is written, which the index's rules
  // key reads without loading this module.
  get version() {
    return usageTotalsRule.version;
  },
  encode: encodeUsageTotals,
  decode: decodeUsageTotals,
  init: () => ({
    tree: emptyUsageTotals(),
    count: 0,
    reusedIds: false,
    leaf: undefined,
    memo: { folded: 0, last: undefined },
    diagnosticLog: [],
    diagnosticCount: 0,
  }),
  apply(state, entry: SessionEntry, ctx) {
    const own = usageRecordOf(entry);
    const tree = own ? addToTotals(state.tree, own.key, own.usage) : state.tree;
    const count = state.count + 1;
    const memo =
      state.memo.folded === state.count ? state.memo : { folded: count, last: undefined };
    memo.folded = count;
    const id: unknown = (entry as { id?: unknown } | null)?.id;
    // A reused id (W15) re-points lookups, so no path totals computed before it can be trusted.
    const reusedIds = state.reusedIds || (typeof id === "string" && ctx.getEntry(id) !== undefined);
    let leaf: BranchCache | undefined;
    if (typeof id === "string" && !reusedIds) {
      const parentId = parentOf(entry);
      const base = parentId === null ? emptyUsageTotals() : cached(state, parentId);
      if (base && parentId !== id) {
        leaf = { id, count, totals: own ? addToTotals(base, own.key, own.usage) : base };
      }
    }
    let { diagnosticLog, diagnosticCount } = state;
    if (own && own.diagnostics.length > 0) {
      // Push in place only when nothing was pushed past this snapshot: a snapshot extended
      // twice must not see the other extension's diagnostics.
      if (diagnosticLog.length !== diagnosticCount) {
        diagnosticLog = diagnosticLog.slice(0, diagnosticCount);
      }
      diagnosticLog.push(...own.diagnostics);
      diagnosticCount = diagnosticLog.length;
    }
    return { tree, count, reusedIds, leaf, memo, diagnosticLog, diagnosticCount };
  },
});

/** The diagnostics of every entry folded into `state` (negative usage fields), in log order. */
export function usageDiagnostics(state: UsageTotalsState): readonly UsageDiagnostic[] {
  return state.diagnosticLog.slice(0, state.diagnosticCount);
}

/** Totals over every entry of the file, all branches included. O(1). */
export function treeUsageTotals(state: UsageTotalsState): UsageTotals {
  return state.tree;
}

/**
 * Totals along the path root → `leafId` (SPEC §7.6 `getBranch`): zero totals for a `null`
 * leaf, undefined when the id is unknown (`getBranch` gives an empty path). `getBranch`
 * answers paths over the same entries the state folded: `(id) => manager.getBranch(id)` for
 * the manager the projection is installed in, or core's `branchOf(state, id)`. O(1) at the
 * entry folded last or the leaf asked before, otherwise one `getBranch` and an O(path) sum.
 * Sums always run root → leaf, so every route gives the same floating-point result.
 */
export function branchUsageTotals(
  state: UsageTotalsState,
  leafId: string | null,
  getBranch: (id: string) => readonly SessionEntry[],
): UsageTotals | undefined {
  if (leafId === null) return emptyUsageTotals();
  const hit = cached(state, leafId);
  if (hit) return hit;
  const path = getBranch(leafId);
  if (path.length === 0) return undefined;
  let totals = emptyUsageTotals();
  for (const entry of path) {
    const own = usageRecordOf(entry);
    if (own) totals = addToTotals(totals, own.key, own.usage);
  }
  // Remembered for this snapshot only (the count): a later entry may complete an orphan's
  // path. Writing the shared slot is safe, as it only caches what this function returns.
  if (!state.reusedIds) state.memo.last = { id: leafId, count: state.count, totals };
  return totals;
}
