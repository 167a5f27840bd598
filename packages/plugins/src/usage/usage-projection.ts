/**
 * The usage-totals projection (DESIGN rule 5): a fold of the entry log into
 * whole-file totals, plus what is needed to answer branch totals for any leaf.
 *
 * Cost follows the work (DESIGN rule 7). Per append: O(number of models) for an entry with
 * usage, O(1) otherwise; the store keeps a reference to each entry and each id's position.
 * Branch totals: the projection keeps the totals of the path to the entry just folded while
 * appends extend that path, so the agent-loop case (append at the leaf, read the totals) is
 * O(1). Any other leaf costs one O(path) walk, which is remembered, so appending on from that
 * leaf is O(1) again. Per-entry path totals are not stored: with a per-model breakdown they
 * would cost O(models) memory per entry and dominate a replay's time in garbage collection.
 *
 * Damage never changes the answer, only the speed: after a reused id (SPEC W15) every branch
 * query walks, and a cache is only used for the snapshot it was computed for, so an orphan
 * whose parent comes later is walked again.
 */
import { defineProjection, type SessionEntry, walkPath } from "@pi-sessions/core";
import { usageRecordOf } from "./usage-records.js";
import { addToTotals, emptyUsageTotals, type UsageTotals } from "./usage-sums.js";

/** Branch totals of one entry, as of one snapshot. */
interface BranchCache {
  readonly id: string;
  /** The snapshot (entry count) the totals were computed for. */
  readonly count: number;
  readonly totals: UsageTotals;
}

/**
 * Shared, append-only store: the folded entries in file order and the position of each id
 * (last occurrence). Snapshots read only the first `count` entries. `folded` counts the
 * entries the newest snapshot has seen; `memo` remembers the last walked branch (a cache of a
 * pure function of the snapshot). Entries are kept by reference (the log holds them anyway):
 * retaining a normalised record per entry made a replay spend most of its time in the GC.
 */
interface UsageStore {
  readonly entries: SessionEntry[];
  readonly positions: Map<string, number>;
  folded: number;
  memo: BranchCache | undefined;
}

/** State of the {@link usageTotals} projection. Read it with the query functions. */
export interface UsageTotalsState {
  /** Totals over every entry of the file (all branches). */
  readonly tree: UsageTotals;
  readonly store: UsageStore;
  /** Entries folded into this snapshot. */
  readonly count: number;
  /** True once an id was reused: branch queries then always walk. */
  readonly reusedIds: boolean;
  /** Branch totals at the entry folded last, when its parent's totals were known. */
  readonly leaf: BranchCache | undefined;
}

/** The name the projection is registered under (`getProjectionState("usage-totals")`). */
export const USAGE_TOTALS_PROJECTION_NAME = "usage-totals";

/** A copy of the store as a snapshot sees it (for writes that must not show in others). */
function copyStore(store: UsageStore, count: number): UsageStore {
  const positions = new Map<string, number>();
  for (const [id, pos] of store.positions) if (pos < count) positions.set(id, pos);
  return { entries: store.entries.slice(0, count), positions, folded: count, memo: undefined };
}

/** Position of the entry with this id in the snapshot, or undefined. */
function positionOf(state: UsageTotalsState, id: string): number | undefined {
  const pos = state.store.positions.get(id);
  return pos !== undefined && pos < state.count ? pos : undefined;
}

function parentOf(entry: SessionEntry): string | null {
  const raw: unknown = (entry as { parentId?: unknown }).parentId;
  return typeof raw === "string" ? raw : null;
}

/** Cached branch totals of `id` valid for this snapshot, if any. */
function cached(state: UsageTotalsState, id: string): UsageTotals | undefined {
  if (state.reusedIds) return undefined;
  if (state.leaf?.id === id) return state.leaf.totals;
  const memo = state.store.memo;
  return memo?.id === id && memo.count === state.count ? memo.totals : undefined;
}

/**
 * Usage totals as a projection: install it with `SessionManager.inMemory(cwd, { projections:
 * [usageTotals] })` (or any fold runner) and read the state with {@link treeUsageTotals} and
 * {@link branchUsageTotals}.
 */
export const usageTotals = defineProjection<UsageTotalsState>({
  name: USAGE_TOTALS_PROJECTION_NAME,
  init: () => ({
    tree: emptyUsageTotals(),
    store: { entries: [], positions: new Map(), folded: 0, memo: undefined },
    count: 0,
    reusedIds: false,
    leaf: undefined,
  }),
  apply(state, entry: SessionEntry) {
    const own = usageRecordOf(entry);
    const tree = own ? addToTotals(state.tree, own.key, own.usage) : state.tree;
    // Extending an older snapshot: copy its part first so newer snapshots stay unchanged.
    let store =
      state.store.folded === state.count ? state.store : copyStore(state.store, state.count);
    const id: unknown = (entry as { id?: unknown } | null)?.id;
    let reusedIds = state.reusedIds;
    let leaf: BranchCache | undefined;
    if (typeof id === "string") {
      if (store.positions.has(id)) {
        // Overwriting the position would change what older snapshots see (damage only, W15).
        if (store === state.store) store = copyStore(store, state.count);
        reusedIds = true;
      }
      store.positions.set(id, state.count);
      const parentId = parentOf(entry);
      const base = parentId === null ? emptyUsageTotals() : cached(state, parentId);
      if (base && !reusedIds && parentId !== id) {
        leaf = {
          id,
          count: state.count + 1,
          totals: own ? addToTotals(base, own.key, own.usage) : base,
        };
      }
    }
    store.entries.push(entry);
    store.folded = state.count + 1;
    return { tree, store, count: state.count + 1, reusedIds, leaf };
  },
});

/** Totals over every entry of the file, all branches included. O(1). */
export function treeUsageTotals(state: UsageTotalsState): UsageTotals {
  return state.tree;
}

/**
 * Totals along the path root → `leafId` (SPEC §7.6 `getBranch`): zero totals for a `null`
 * leaf, undefined when no entry has that id. O(1) at the entry folded last or the leaf asked
 * before, otherwise O(path). Sums always run root → leaf, so every route gives the same
 * floating-point result.
 */
export function branchUsageTotals(
  state: UsageTotalsState,
  leafId: string | null,
): UsageTotals | undefined {
  if (leafId === null) return emptyUsageTotals();
  const leafPos = positionOf(state, leafId);
  if (leafPos === undefined) return undefined;
  const hit = cached(state, leafId);
  if (hit) return hit;
  const path = walkPath(
    state.store.entries[leafPos] as SessionEntry,
    (id) => {
      const pos = positionOf(state, id);
      return pos === undefined ? undefined : state.store.entries[pos];
    },
    state.count,
  );
  let totals = emptyUsageTotals();
  for (const entry of path) {
    const own = usageRecordOf(entry);
    if (own) totals = addToTotals(totals, own.key, own.usage);
  }
  // Remembered for this snapshot only (the count): a later entry may complete an orphan's
  // path. Writing the shared slot is safe, as it only caches what this function returns.
  if (!state.reusedIds) state.store.memo = { id: leafId, count: state.count, totals };
  return totals;
}
