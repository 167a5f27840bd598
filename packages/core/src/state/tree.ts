import type { SessionEntry, SessionTreeNode } from "../schema/types.js";
import { type EntryLog, entryAt, isIndexedAt, positionOf } from "./entry-log.js";

/** Timestamp sort key: valid dates ascending, unparseable ones after them (SPEC §7.8). */
function timeKey(entry: SessionEntry): number {
  const t = Date.parse(entry.timestamp);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/**
 * The entry tree (SPEC §7.8): roots in file order (null parent, self-parent, missing parent,
 * or the first-in-file-order member of a parent cycle), children sorted by timestamp with a
 * stable sort, each indexed id exactly once (W14, W15). Iterative, so deep trees cannot
 * overflow the stack. Costs O(n log n) for the sorts.
 */
export function buildTree(
  log: EntryLog,
  labelOf: (id: string) => { readonly label: string; readonly timestamp: string } | undefined,
): SessionTreeNode[] {
  const n = log.length;
  const nodes: (SessionTreeNode | undefined)[] = new Array(n);
  const { indexed, parentPos } = parentLinks(log);
  for (const pos of indexed) {
    const entry = entryAt(log, pos);
    const node: SessionTreeNode = { entry, children: [] };
    const label = labelOf(entry.id);
    if (label) {
      node.label = label.label;
      node.labelTimestamp = label.timestamp;
    }
    nodes[pos] = node;
  }
  // Cut each cycle at its member that comes first in file order; it becomes a root.
  for (const cycle of parentCycles(indexed, parentPos)) {
    let first = cycle[0] as number;
    for (const c of cycle) if (c < first) first = c;
    parentPos[first] = -1;
  }
  const roots: SessionTreeNode[] = [];
  for (const pos of indexed) {
    const node = nodes[pos] as SessionTreeNode;
    const p = parentPos[pos] as number;
    if (p < 0) roots.push(node);
    else (nodes[p] as SessionTreeNode).children.push(node);
  }
  for (const pos of indexed) {
    const children = (nodes[pos] as SessionTreeNode).children;
    if (children.length > 1) children.sort((a, b) => timeKey(a.entry) - timeKey(b.entry));
  }
  return roots;
}

/** Indexed positions in file order and, for each, the position of its indexed parent. */
export interface ParentLinks {
  readonly indexed: readonly number[];
  /** -1 for a root: null or missing parent, or a self-parent. */
  readonly parentPos: Int32Array;
}

/** The parent links of the indexed entries (shadowed duplicates left out). O(n). */
export function parentLinks(log: EntryLog): ParentLinks {
  const parentPos = new Int32Array(log.length).fill(-1);
  const indexed: number[] = [];
  for (let pos = 0; pos < log.length; pos++) {
    if (!isIndexedAt(log, pos)) continue;
    indexed.push(pos);
    const parentId = entryAt(log, pos).parentId;
    const p = typeof parentId === "string" ? positionOf(log, parentId) : -1;
    parentPos[pos] = p === pos ? -1 : p;
  }
  return { indexed, parentPos };
}

/**
 * The parent cycles (SPEC W14), each as its member positions in walk order. Walks up from
 * every position not yet known to reach a root; a walk that meets itself has found a cycle.
 * Each position is visited a constant number of times, so this is O(n).
 */
export function parentCycles(indexed: readonly number[], parentPos: Int32Array): number[][] {
  const cycles: number[][] = [];
  // 0 = unknown, 1 = on the current walk, 2 = done.
  const state = new Uint8Array(parentPos.length);
  for (const start of indexed) {
    if (state[start] === 2) continue;
    const walk: number[] = [];
    let p = start;
    while (p >= 0 && state[p] === 0) {
      state[p] = 1;
      walk.push(p);
      p = parentPos[p] as number;
    }
    if (p >= 0 && state[p] === 1) cycles.push(walk.slice(walk.indexOf(p)));
    for (const w of walk) state[w] = 2;
  }
  return cycles;
}
