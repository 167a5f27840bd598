/**
 * The usage-totals projection (issue 4 part 5, DESIGN rule 5): a fold of the entry log into
 * whole-file totals and, per entry, the totals of the path root → that entry.
 *
 * Cost per append is O(number of models) for an entry with usage and O(1) otherwise: the
 * whole-file totals are a running sum and each entry's path totals extend its parent's
 * (entries without usage share their parent's totals object). Branch totals are then an O(1)
 * lookup. Two kinds of damage make a stored path total unreliable, and for those the query
 * walks the path instead (O(path)): an entry folded before its parent (foreign writers), and
 * a reused id (the later entry shadows the earlier one for lookups, SPEC W15).
 */
import { defineProjection, type SessionEntry } from "@pi-sessions/core";
import { type UsageRecord, usageRecordOf } from "./usage-records.js";
import { addToTotals, emptyUsageTotals, type UsageTotals } from "./usage-sums.js";

/** What the projection keeps per entry id. */
interface UsageNode {
  /** Position of the entry in file order; snapshots ignore nodes at or past their count. */
  readonly pos: number;
  readonly parentId: string | null;
  readonly own: UsageRecord | undefined;
  /** Totals along root → this entry, as known when the entry was folded. */
  readonly path: UsageTotals;
  /** Whether every ancestor was already folded when this entry was (so `path` is complete). */
  readonly exact: boolean;
}

/** Shared, append-only store; `folded` counts the entries the newest snapshot has seen. */
interface UsageStore {
  readonly nodes: Map<string, UsageNode>;
  folded: number;
}

/** State of the {@link usageTotals} projection. Read it with the query functions. */
export interface UsageTotalsState {
  /** Totals over every entry of the file (all branches). */
  readonly tree: UsageTotals;
  readonly store: UsageStore;
  /** Entries folded into this snapshot. */
  readonly count: number;
  /** True once an id was reused: stored path totals may then follow a shadowed parent. */
  readonly reusedIds: boolean;
}

/** The name the projection is registered under (`getProjectionState("usage-totals")`). */
export const USAGE_TOTALS_PROJECTION_NAME = "usage-totals";

/** Node copy for a write that an older snapshot must not see (appending to an old snapshot). */
function ownStore(state: UsageTotalsState): UsageStore {
  if (state.store.folded === state.count) return state.store;
  const nodes = new Map<string, UsageNode>();
  for (const [id, node] of state.store.nodes) if (node.pos < state.count) nodes.set(id, node);
  return { nodes, folded: state.count };
}

function visible(state: UsageTotalsState, id: string): UsageNode | undefined {
  const node = state.store.nodes.get(id);
  return node !== undefined && node.pos < state.count ? node : undefined;
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
    store: { nodes: new Map(), folded: 0 },
    count: 0,
    reusedIds: false,
  }),
  apply(state, entry: SessionEntry) {
    const own = usageRecordOf(entry);
    const tree = own ? addToTotals(state.tree, own.key, own.usage) : state.tree;
    let store = ownStore(state);
    const id: unknown = (entry as { id?: unknown } | null)?.id;
    let reusedIds = state.reusedIds;
    if (typeof id === "string") {
      if (store.nodes.has(id)) {
        // Overwriting would change what older snapshots see: copy first (damage only, W15).
        if (store === state.store) store = { nodes: new Map(store.nodes), folded: store.folded };
        reusedIds = true;
      }
      const rawParent: unknown = (entry as { parentId?: unknown }).parentId;
      const parentId = typeof rawParent === "string" ? rawParent : null;
      const parent = parentId === null ? undefined : store.nodes.get(parentId);
      const base = parent ? parent.path : emptyUsageTotals();
      store.nodes.set(id, {
        pos: state.count,
        parentId,
        own,
        path: own ? addToTotals(base, own.key, own.usage) : base,
        exact: parentId === null || parent?.exact === true,
      });
    }
    store.folded = state.count + 1;
    return { tree, store, count: state.count + 1, reusedIds };
  },
});

/** Totals over every entry of the file, all branches included. O(1). */
export function treeUsageTotals(state: UsageTotalsState): UsageTotals {
  return state.tree;
}

/**
 * Totals along the path root → `leafId` (SPEC §7.6 `getBranch`): zero totals for a `null`
 * leaf, undefined when no entry has that id. O(1), or O(path) after damage (see the module
 * note). Sums run root → leaf in either case, so both give the same floating-point result.
 */
export function branchUsageTotals(
  state: UsageTotalsState,
  leafId: string | null,
): UsageTotals | undefined {
  if (leafId === null) return emptyUsageTotals();
  const leaf = visible(state, leafId);
  if (!leaf) return undefined;
  if (leaf.exact && !state.reusedIds) return leaf.path;
  const path: UsageNode[] = [];
  const seen = new Set<string>();
  let node: UsageNode | undefined = leaf;
  let id = leafId;
  while (node && !seen.has(id)) {
    seen.add(id);
    path.push(node);
    if (node.parentId === null) break;
    id = node.parentId;
    node = visible(state, id);
  }
  let totals = emptyUsageTotals();
  for (let i = path.length - 1; i >= 0; i--) {
    const own = (path[i] as UsageNode).own;
    if (own) totals = addToTotals(totals, own.key, own.usage);
  }
  return totals;
}
