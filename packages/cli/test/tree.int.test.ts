/**
 * `tree` through the real bin, on copies of the corpus and on generated sessions, judged
 * against the reference implementation's `getTree`, `getLeafId`, `getLabel` and `getBranch`.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CORPUS, copyCorpus, snapshot } from "./helpers/fixtures.js";
import { flattenReferenceTree, openWithReference } from "./helpers/reference.js";
import { runBin } from "./helpers/run-bin.js";

interface Node {
  id: string;
  parentId: string | null;
  type: string;
  depth: number;
  label?: string;
  leaf: boolean;
  onPath: boolean;
  hidden?: number;
}

async function treeJson(args: readonly string[]): Promise<{ leafId: string; nodes: Node[] }> {
  const r = await runBin(["tree", ...args, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The ids `tree --json` marks as on the leaf's path, sorted (display order is tree order). */
const onPathIds = (nodes: readonly Node[]): string[] =>
  nodes
    .filter((n) => n.onPath)
    .map((n) => n.id)
    .sort();

describe("tree on the branched corpus session", () => {
  it("shows every entry once, in the reference's tree order, with its labels, leaf and path", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
    const { leafId, nodes } = await treeJson([file]);
    const ref = await openWithReference(file);
    const expected = flattenReferenceTree(ref.getTree());
    expect(nodes.map((n) => [n.id, n.depth])).toEqual(expected.map((n) => [n.id, n.depth]));
    expect(nodes.map((n) => n.label)).toEqual(expected.map((n) => n.label));
    expect(leafId).toBe(ref.getLeafId());
    expect(nodes.filter((n) => n.leaf).map((n) => n.id)).toEqual([ref.getLeafId()]);
    const path = new Set(ref.getBranch().map((e) => e.id));
    expect(onPathIds(nodes)).toEqual([...path].sort());
  });

  it("marks compactions, branch summaries, labels and the leaf in text", async () => {
    const root = tempDir();
    copyCorpus(root, [CORPUS.branched]);
    const r = await runBin(["tree", "Layout and docs", "--dir", root]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe('Session 01a22a6a-1870-74e8-b456-77b8915db22e "Layout and docs"');
    expect(lines.filter((l) => l.includes("⟲ compaction (5400 tokens before)"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("⎇ branch summary: Abandoned"))).toHaveLength(1);
    expect(lines.find((l) => l.includes("[bench added]"))).toMatch(/assistant: Added bench/);
    expect(lines.filter((l) => l.endsWith("← leaf"))).toHaveLength(1);
    // Two branches leave one branch point: one `├─` and one `└─` connector.
    expect(lines.filter((l) => l.startsWith("├─ "))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith("└─ "))).toHaveLength(1);
  });

  it("--depth cuts deeper entries and says how many it hid", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
    const all = (await treeJson([file])).nodes;
    for (const depth of [1, 3, 8]) {
      const { nodes } = await treeJson([file, "--depth", String(depth)]);
      const shown = nodes.filter((n) => n.hidden === undefined);
      const hidden = nodes.reduce((sum, n) => sum + (n.hidden ?? 0), 0);
      expect(shown.every((n) => n.depth <= depth)).toBe(true);
      expect(shown.map((n) => n.id)).toEqual(all.filter((n) => n.depth <= depth).map((n) => n.id));
      expect(shown.length + hidden).toBe(all.length);
    }
  });

  it("--leaf takes an id prefix and marks that entry's path; unknown is exit 1, ambiguous exit 2", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
    const ref = await openWithReference(file);
    const other = ref
      .getEntries()
      .find((e) => e.type === "message" && !ref.getBranch().some((b) => b.id === e.id));
    expect(other).toBeDefined();
    const id = (other as { id: string }).id;
    const { leafId, nodes } = await treeJson([file, "--leaf", id.slice(0, 5)]);
    expect(leafId).toBe(id);
    const path = ref.getBranch(id).map((e) => e.id);
    expect(onPathIds(nodes)).toEqual([...path].sort());

    const unknown = await runBin(["tree", file, "--leaf", "zzzz"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no entry "zzzz"');
    const firstChars = ref.getEntries().map((e) => e.id[0]);
    const shared = firstChars.find((c, i) => firstChars.indexOf(c) !== i) as string;
    const ambiguous = await runBin(["tree", file, "--leaf", shared]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain("ambiguous");
  });
});

describe("tree reads only", () => {
  it("leaves a v1 file as it was (the reference would migrate it on open)", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.large])[CORPUS.large] as string;
    const before = snapshot(root);
    const { nodes } = await treeJson([file]);
    expect(snapshot(root)).toEqual(before);
    const ref = await openWithReference(file);
    expect(nodes).toHaveLength(ref.getEntries().length);
  });
});

describe("tree on generated sessions", () => {
  const TREE_PARAMS = fcOptions(6);
  it(`matches the reference's tree, leaf and path for random branched logs (numRuns ${TREE_PARAMS.numRuns})`, async () => {
    const arb = sessionLogArb({ minEntries: 1, maxEntries: 40, shape: "bushy", multiRoot: true });
    await fc.assert(
      fc.asyncProperty(arb, async (log) => {
        const dir = tempDir();
        const file = join(dir, "s.jsonl");
        writeFileSync(file, log.jsonl);
        const { leafId, nodes } = await treeJson([file]);
        const ref = await openWithReference(file);
        const expected = flattenReferenceTree(ref.getTree());
        expect(nodes.map((n) => [n.id, n.depth, n.label])).toEqual(
          expected.map((n) => [n.id, n.depth, n.label]),
        );
        expect(leafId).toBe(ref.getLeafId());
      }),
      TREE_PARAMS,
    );
  });
});
