/** A tree as the tests compare it: ids (with labels) in pre-order. */

import type { SessionTreeNode } from "@pi-sessions/core";

/** Ids (with labels) of a tree in pre-order. */
export function flatten(roots: readonly SessionTreeNode[]): string[] {
  const out: string[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as SessionTreeNode;
    out.push(`${node.entry.id}${node.label === undefined ? "" : `[${node.label}]`}`);
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push(node.children[i] as SessionTreeNode);
  }
  return out;
}
