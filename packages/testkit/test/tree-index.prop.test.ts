/**
 * Core's tree index over raw parsed records agrees with the manager's `getTree()` and
 * `getBranch()` (which read the entry log through the same index type, but a different
 * source: the loader's log, not the file's lines) on damaged files: reused ids, dangling
 * parents, parent cycles, records without ids, skewed clocks.
 */
import {
  recordsTreeSource,
  SessionManager,
  type SessionTreeNode,
  type TreeIndex,
  treeIndex,
} from "@pi-sessions/core";
import {
  type DamageKind,
  damagedSessionArb,
  sessionLogArb,
  sessionToJsonl,
} from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "./arbitraries-run.js";

const RUNS = runs(300);

/** The file's records after the header, as a tool reading it line by line sees them. */
function rawRecords(jsonl: string): unknown[] {
  const records = jsonl.split("\n").flatMap((line) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
  // Headers (the first and any extra one) are not entries.
  return records.filter(
    (r) => typeof r !== "object" || r === null || (r as { type?: unknown }).type !== "session",
  );
}

/** A tree reduced to ids, in order. */
type Shape = [string, Shape[]];
const managerShape = (nodes: readonly SessionTreeNode[]): Shape[] =>
  nodes.map((n) => [n.entry.id, managerShape(n.children)]);
function indexShape(tree: TreeIndex, records: readonly unknown[], roots: readonly number[]) {
  const idOf = (pos: number) => (records[pos] as { id: string }).id;
  const shape = (pos: number): Shape => [idOf(pos), tree.children(pos).map(shape)];
  return roots.map(shape);
}

function expectAgrees(jsonl: string): void {
  const sm = SessionManager.fromJsonl(jsonl);
  const records = rawRecords(jsonl);
  const tree = treeIndex(recordsTreeSource(records));
  expect(indexShape(tree, records, tree.roots())).toEqual(managerShape(sm.getTree()));
  const ids = tree.indexed.map((pos) => (records[pos] as { id: string }).id);
  expect(new Set(ids).size).toBe(sm.getEntryCount());
  for (const [i, pos] of tree.indexed.entries()) {
    const path = tree.pathTo(pos).map((p) => (records[p] as { id: string }).id);
    expect(path, ids[i]).toEqual(sm.getBranch(ids[i]).map((e) => e.id));
  }
}

describe("core's tree index agrees with the manager", () => {
  it(`on damaged files with reused ids, dangling parents and cycles (property, numRuns ${RUNS})`, () => {
    const damage: DamageKind[] = [
      "duplicate-id",
      "dangling-parent",
      "cycle",
      "missing-id",
      "extra-header",
    ];
    fc.assert(
      fc.property(damagedSessionArb({ damage, maxDamage: 4, clockSkew: true }), (d) =>
        expectAgrees(d.jsonl),
      ),
      params(RUNS),
    );
  });

  it(`on branching, multi-root logs with skewed clocks (property, numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(sessionLogArb({ multiRoot: true, clockSkew: true }), (log) =>
        expectAgrees(sessionToJsonl(log.header, log.entries)),
      ),
      params(RUNS),
    );
  });
});
