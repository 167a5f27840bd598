/**
 * Flattening a session tree into display rows: pre-order, with box-drawing prefixes only at
 * branch points (a linear run stays in one column, so a long conversation does not march off
 * the screen). Iterative, so a chain of 100,000 entries cannot overflow the stack.
 */

import type { SessionEntry, SessionTreeNode } from "@pi-sessions/core";
import { entrySummary } from "./entry-summary.js";

/** One displayed entry, or a marker for entries cut off by `--depth`. */
export interface TreeRow {
  /** Box-drawing prefix (`├─ `, `│  `, …) that places the row. */
  readonly prefix: string;
  /** 1-based depth in entries from its root. */
  readonly depth: number;
  readonly id: string;
  readonly parentId: string | null;
  readonly type: string;
  readonly timestamp: string;
  readonly summary: string;
  readonly label?: string;
  /** The current leaf (or the `--leaf` entry). */
  readonly leaf: boolean;
  /** On the path from the root to the leaf: what the context is built from. */
  readonly onPath: boolean;
  readonly children: number;
  /** For a cut row: how many entries below it `--depth` hid. */
  readonly hidden?: number;
}

interface Frame {
  readonly node: SessionTreeNode;
  readonly prefix: string;
  readonly connector: string;
  readonly depth: number;
}

/** What a child's prefix continues with under a given connector. */
function continuation(connector: string): string {
  if (connector === "") return "";
  return connector.startsWith("└") ? "   " : "│  ";
}

/** Entries in the subtree below `node` (not counting it), counted over the tree given. */
function descendants(node: SessionTreeNode): number {
  let count = 0;
  const stack = [...node.children];
  while (stack.length > 0) {
    const n = stack.pop() as SessionTreeNode;
    count++;
    for (const c of n.children) stack.push(c);
  }
  return count;
}

/** Frames for the children of a node, last first (they are popped from a stack). */
function childFrames(children: readonly SessionTreeNode[], prefix: string, depth: number): Frame[] {
  if (children.length === 1) {
    return [{ node: children[0] as SessionTreeNode, prefix, connector: "", depth }];
  }
  const frames: Frame[] = [];
  for (let i = children.length - 1; i >= 0; i--) {
    const connector = i === children.length - 1 ? "└─ " : "├─ ";
    frames.push({ node: children[i] as SessionTreeNode, prefix, connector, depth });
  }
  return frames;
}

/**
 * The rows of a session's tree. `leafId` marks the leaf and `onPath` the ids of its path;
 * `maxDepth` cuts entries deeper than it, leaving one row per cut that says how many entries
 * it hides (`hiddenBelow`: by default counted over `tree`, which then must hold them all).
 * `summaryOf` describes a row's entry (through the index, the tree's entries are read from
 * their lines only for the rows shown, in grouped reads).
 */
export function treeRows(
  tree: readonly SessionTreeNode[],
  leafId: string | null,
  onPath: ReadonlySet<string>,
  maxDepth = Number.POSITIVE_INFINITY,
  summaryOf: (entry: SessionEntry) => string = entrySummary,
  hiddenBelow: (node: SessionTreeNode) => number = descendants,
): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack = childFrames(tree, "", 1);
  while (stack.length > 0) {
    const { node, prefix, connector, depth } = stack.pop() as Frame;
    const e = node.entry;
    const childPrefix = prefix + continuation(connector);
    rows.push({
      prefix: prefix + connector,
      depth,
      id: e.id,
      parentId: typeof e.parentId === "string" ? e.parentId : null,
      type: typeof e.type === "string" ? e.type : "?",
      timestamp: typeof e.timestamp === "string" ? e.timestamp : "",
      summary: summaryOf(e),
      ...(node.label !== undefined ? { label: node.label } : {}),
      leaf: e.id === leafId,
      onPath: onPath.has(e.id),
      children: node.children.length,
    });
    if (node.children.length === 0) continue;
    if (depth >= maxDepth) {
      rows.push({
        prefix: `${childPrefix}└─ `,
        depth: depth + 1,
        id: "",
        parentId: e.id,
        type: "cut",
        timestamp: "",
        summary: "",
        leaf: false,
        onPath: false,
        children: 0,
        hidden: hiddenBelow(node),
      });
      continue;
    }
    stack.push(...childFrames(node.children, childPrefix, depth + 1));
  }
  return rows;
}
