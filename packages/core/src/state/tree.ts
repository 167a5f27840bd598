import { type LabelIndex, labelOf } from "../projections/labels.js";
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
export function buildTree(log: EntryLog, labels: LabelIndex): SessionTreeNode[] {
  const n = log.length;
  const nodes: (SessionTreeNode | undefined)[] = new Array(n);
  /** For each indexed position, the position of its indexed parent, or -1 for a root. */
  const parentPos = new Int32Array(n).fill(-1);
  const indexed: number[] = [];
  for (let pos = 0; pos < n; pos++) {
    if (!isIndexedAt(log, pos)) continue;
    const entry = entryAt(log, pos);
    const node: SessionTreeNode = { entry, children: [] };
    const label = labelOf(labels, entry.id);
    if (label) {
      node.label = label.label;
      node.labelTimestamp = label.timestamp;
    }
    nodes[pos] = node;
    indexed.push(pos);
    const p = typeof entry.parentId === "string" ? positionOf(log, entry.parentId) : -1;
    parentPos[pos] = p === pos ? -1 : p;
  }
  breakCycles(indexed, parentPos);
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

/**
 * Makes every parent cycle reachable: marks what hangs below a root, then for the first
 * unmarked position in file order walks up to its cycle and cuts the cycle at its member
 * that comes first in file order. Each position is visited a constant number of times.
 */
function breakCycles(indexed: readonly number[], parentPos: Int32Array): void {
  const n = parentPos.length;
  // state: 0 = unknown, 1 = on the current walk, 2 = reaches a root.
  const state = new Uint8Array(n);
  for (const start of indexed) {
    if (state[start] === 2) continue;
    const walk: number[] = [];
    let p = start;
    while (p >= 0 && state[p] === 0) {
      state[p] = 1;
      walk.push(p);
      p = parentPos[p] as number;
    }
    if (p >= 0 && state[p] === 1) {
      // `p` is on this walk: the cycle is walk[walk.indexOf(p)..]. Cut at its first member.
      const cycle = walk.slice(walk.indexOf(p));
      let first = cycle[0] as number;
      for (const c of cycle) if (c < first) first = c;
      parentPos[first] = -1;
    }
    for (const w of walk) state[w] = 2;
  }
}
