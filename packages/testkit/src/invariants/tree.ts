/**
 * I4: `getTree()` holds every entry exactly once, roots and children in the order SPEC §7.8
 * gives, with the labels SPEC §7.10 resolves.
 */

import { indexEntries } from "./branch.js";
import { jsonEqual } from "./json.js";
import {
  type EntryView,
  guard,
  type SessionView,
  type TreeNodeView,
  type Violation,
  violation,
} from "./types.js";

/**
 * Labels replayed over the whole file in file order: id → [label, timestamp] (SPEC §7.10). A truthy
 * label sets (a non-string one too, as the reference does), a falsy one clears. The testkit's one
 * label oracle (the model uses it too), written apart from core's on purpose: I4 (the tree, labels
 * included) compares core's labels against it, which calling core would turn into a tautology.
 */
export function resolveLabelsOf(
  entries: readonly Pick<EntryView, "type" | "timestamp">[],
): Map<string, [unknown, string]> {
  const labels = new Map<string, [unknown, string]>();
  for (const e of entries) {
    if (e.type !== "label") continue;
    const { targetId, label } = e as EntryView & { targetId?: unknown; label?: unknown };
    if (typeof targetId !== "string") continue;
    if (label) labels.set(targetId, [label, e.timestamp]);
    else labels.delete(targetId);
  }
  return labels;
}

/** True when walking parents from `id` comes back to it: `id` is on a parent cycle. */
function onCycle(byId: ReadonlyMap<string, EntryView>, id: string): boolean {
  const seen = new Set<string>();
  let cur = byId.get(id);
  while (cur && !seen.has(cur.id)) {
    seen.add(cur.id);
    const p = cur.parentId;
    if (p === id) return true;
    cur = typeof p === "string" && p !== cur.id ? byId.get(p) : undefined;
  }
  return false;
}

/** The members of the cycle through `id`, in walk order. */
function cycleMembers(byId: ReadonlyMap<string, EntryView>, id: string): string[] {
  const members = [id];
  for (let p = byId.get(id)?.parentId; p && p !== id; p = byId.get(p)?.parentId) members.push(p);
  return members;
}

/**
 * I4. Every indexed id appears exactly once and each node holds the indexed entry; roots are
 * exactly the entries with a null, own or missing parent, plus the first member (in file
 * order) of each parent cycle, in file order; a child's `parentId` is its node's id; children
 * with valid timestamps are in ascending time, ties in file order; `label`/`labelTimestamp`
 * (and `getLabel`, when present) are the labels replayed over the whole file.
 */
export function checkI4TreeCoverage(session: SessionView): Violation[] {
  return guard("I4", (out) => {
    const entries = session.getEntries();
    const byId = indexEntries(entries);
    const position = new Map<string, number>();
    entries.forEach((e, i) => {
      position.set(e.id, i);
    });
    const labels = resolveLabelsOf(entries);
    const seen = new Set<string>();
    const roots = session.getTree();
    checkOrder(roots, position, "roots", out, false);
    for (const root of roots) checkRoot(root.entry, byId, position, out);
    const stack: TreeNodeView[] = [...roots];
    while (stack.length > 0) {
      const node = stack.pop() as TreeNodeView;
      const id = node.entry.id;
      const at = { entryId: id };
      if (seen.has(id)) out.push(violation("I4", "the entry appears twice in the tree", at));
      seen.add(id);
      if (!jsonEqual(node.entry, byId.get(id))) {
        out.push(violation("I4", "the node does not hold the indexed entry", at));
      }
      const expected = labels.get(id);
      if (node.label !== expected?.[0] || node.labelTimestamp !== expected?.[1]) {
        out.push(
          violation(
            "I4",
            `label ${JSON.stringify(node.label)} should be ${JSON.stringify(expected?.[0])}`,
            at,
          ),
        );
      }
      if (session.getLabel && session.getLabel(id) !== expected?.[0]) {
        out.push(violation("I4", "getLabel disagrees with the labels in the file", at));
      }
      for (const child of node.children) {
        if (child.entry.parentId !== id) {
          out.push(
            violation("I4", `child ${child.entry.id} does not name this entry as parent`, at),
          );
        }
        stack.push(child);
      }
      checkOrder(node.children, position, id, out, true);
    }
    for (const id of byId.keys()) {
      if (!seen.has(id))
        out.push(violation("I4", "the entry is missing from the tree", { entryId: id }));
    }
  });
}

function checkRoot(
  entry: EntryView,
  byId: ReadonlyMap<string, EntryView>,
  position: ReadonlyMap<string, number>,
  out: Violation[],
): void {
  const p = entry.parentId;
  if (p === null || p === entry.id || typeof p !== "string" || !byId.has(p)) return;
  if (!onCycle(byId, entry.id)) {
    out.push(violation("I4", `a root whose parent ${p} exists`, { entryId: entry.id }));
    return;
  }
  const members = cycleMembers(byId, entry.id);
  const first = members.reduce((a, b) =>
    (position.get(a) ?? 0) <= (position.get(b) ?? 0) ? a : b,
  );
  if (first !== entry.id) {
    out.push(
      violation("I4", `the cycle is cut at ${entry.id}, not at its first member ${first}`, {
        entryId: entry.id,
      }),
    );
  }
}

/** Roots in file order; children (with valid timestamps) by time, ties in file order. */
function checkOrder(
  nodes: readonly TreeNodeView[],
  position: ReadonlyMap<string, number>,
  where: string,
  out: Violation[],
  byTime: boolean,
): void {
  let prev: { t: number; pos: number; id: string } | undefined;
  for (const n of nodes) {
    const t = byTime ? Date.parse(n.entry.timestamp) : 0;
    // SPEC §7.8 leaves unparseable timestamps to the implementation; only valid ones are ordered.
    if (Number.isNaN(t)) continue;
    const cur = { t, pos: position.get(n.entry.id) ?? -1, id: n.entry.id };
    if (prev && (cur.t < prev.t || (cur.t === prev.t && cur.pos < prev.pos))) {
      const what = byTime ? "children of" : "";
      out.push(
        violation(
          "I4",
          `${what} ${where}: ${cur.id} comes after ${prev.id} but sorts before it`.trim(),
          {
            entryId: cur.id,
          },
        ),
      );
    }
    prev = cur;
  }
}
