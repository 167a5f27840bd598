/**
 * I4: getTree() holds every indexed entry exactly once, roots in file order, children
 * sorted by timestamp with a stable sort and unparseable timestamps last (SPEC §7.7, §7.8);
 * getChildren() is the file-order list of entries naming the parent.
 */
import type { SessionEntry, SessionManager, SessionTreeNode } from "@pi-sessions/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "../arbitraries-run.js";
import { damagedLog, ID_POOL, validLog } from "./arbitraries.js";
import { applyOp, envSpec, loadManager, newManager, ops } from "./operations.js";
import { cyclesOf, indexById, labelOracle } from "./oracles.js";

const RUNS = runs(1000);

/** Sort key of §7.8: Date.parse, unparseable after every valid one. */
const key = (e: SessionEntry): number => {
  const t = Date.parse(e.timestamp);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
};

type Shape = [string, string | undefined, string | undefined, Shape[]];
const shape = (n: SessionTreeNode): Shape => [
  n.entry.id,
  n.label,
  n.labelTimestamp,
  n.children.map(shape),
];

/**
 * The whole expected tree when ids are unique: roots are entries with a null, self, missing
 * or non-string parent, plus the first member (file order) of each cycle; children keep file
 * order, then a stable sort by `key`.
 */
function expectedTree(entries: readonly SessionEntry[]): Shape[] {
  const byId = indexById(entries);
  const cut = new Set<string>();
  for (const cycle of cyclesOf(byId)) {
    const first = entries.find((e) => cycle.includes(e.id));
    if (first) cut.add(first.id);
  }
  const labels = labelOracle(entries);
  const isRoot = (e: SessionEntry): boolean =>
    typeof e.parentId !== "string" || !byId.has(e.parentId) || cut.has(e.id);
  const node = (e: SessionEntry): Shape => {
    const kids = entries.filter((c) => c.parentId === e.id && !isRoot(c));
    kids.sort((a, b) => (key(a) === key(b) ? 0 : key(a) - key(b)));
    const label = labels.get(e.id);
    return [e.id, label?.[0], label?.[1], kids.map(node)];
  };
  return entries.filter(isRoot).map(node);
}

/** Checks the parts of I4 that hold for any log, duplicate ids included. */
function expectTreeBasics(sm: SessionManager, entries: readonly SessionEntry[]): void {
  const byId = indexById(entries);
  const labels = labelOracle(entries);
  const roots = sm.getTree();
  const seen = new Set<string>();
  const problems: string[] = [];
  const stack: SessionTreeNode[] = [...roots];
  while (stack.length > 0) {
    const n = stack.pop() as SessionTreeNode;
    const id = n.entry.id;
    if (seen.has(id)) problems.push(`${id} twice`);
    seen.add(id);
    if (n.entry !== sm.getEntry(id)) problems.push(`${id} is not the stored entry`);
    const label = labels.get(id);
    if (n.label !== label?.[0] || n.labelTimestamp !== label?.[1] || n.label !== sm.getLabel(id)) {
      problems.push(`${id} label ${n.label}@${n.labelTimestamp}`);
    }
    n.children.forEach((c, i) => {
      if (c.entry.parentId !== id) problems.push(`${c.entry.id} under ${id}`);
      const prev = n.children[i - 1];
      if (prev && key(prev.entry) > key(c.entry)) problems.push(`${c.entry.id} out of order`);
    });
    stack.push(...n.children);
  }
  expect(problems).toEqual([]);
  if (roots[0]) expect(sm.getTree()[0]).not.toBe(roots[0]); // new nodes on every call
  expect(seen.size).toBe(sm.getEntryCount());
  expect(seen.size).toBe(byId.size);
  // Each cycle is entered at exactly one root.
  const rootIds = new Set(roots.map((r) => r.entry.id));
  for (const cycle of cyclesOf(byId)) {
    expect(cycle.filter((id) => rootIds.has(id))).toHaveLength(1);
  }
  // getChildren: indexed entries naming the parent, in the reference's Map order (§7.7).
  for (const id of [...byId.keys(), ...ID_POOL]) {
    const expected = [...byId.values()].filter((e) => e.parentId === id);
    expect(sm.getChildren(id)).toEqual(expected);
  }
}

describe("I4: the tree holds every entry once, ordered as SPEC §7.8 says", () => {
  it(`loaded logs with unique ids: exact tree (numRuns ${RUNS})`, () => {
    const logs = fc.oneof(validLog(), damagedLog(true));
    fc.assert(
      fc.property(logs, (entries) => {
        const sm = loadManager(entries);
        expectTreeBasics(sm, entries);
        expect(sm.getTree().map(shape)).toEqual(expectedTree(entries));
      }),
      params(RUNS),
    );
  });

  it(`loaded logs with duplicate ids: each id once, parents and order kept (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(damagedLog(), (entries) => {
        expectTreeBasics(loadManager(entries), entries);
      }),
      params(RUNS),
    );
  });

  it(`after random operations, equal timestamps included (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(envSpec, validLog(12), ops(), (env, start, list) => {
        const sm = start.length > 0 ? loadManager(start, env) : newManager(env);
        for (const o of list) applyOp(sm, o);
        const entries = sm.getEntries();
        expectTreeBasics(sm, entries);
        expect(sm.getTree().map(shape)).toEqual(expectedTree(entries));
      }),
      params(RUNS),
    );
  });
});
