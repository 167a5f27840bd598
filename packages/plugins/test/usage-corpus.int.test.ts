import { readFileSync } from "node:fs";
import { join } from "node:path";
import { replayProjection, SessionManager } from "@pi-sessions/core";
import {
  branchUsageTotals,
  computeUsageTotals,
  UNATTRIBUTED_USAGE_KEY,
  usageTotals,
} from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR, corpusCopy, corpusFiles } from "./usage-fixtures.js";
import { comparable, naivePath, naiveTotals } from "./usage-oracle.js";

describe("usage totals of every corpus session vs an independent naive sum", () => {
  const files = corpusFiles();

  it("finds the corpus", () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  for (const name of files) {
    it(`${name}: tree totals equal the naive sum over the raw file lines`, () => {
      // Raw lines of the original (read-only), not the migrated copy: migration must not
      // change what is counted.
      const raw = readFileSync(join(CORPUS_DIR, name), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as unknown)
        .slice(1);
      const { file, dir } = corpusCopy(name);
      const sm = SessionManager.open(file, dir);
      const result = computeUsageTotals(sm);
      const naive = naiveTotals(raw);
      expect(naive.records).toBeGreaterThan(0);
      expect(comparable(result.tree)).toEqual(naive);
      // Key order: first appearance in file order.
      expect(Object.keys(result.tree.byModel)).toEqual(Object.keys(naive.byModel));
    });

    it(`${name}: branch totals at every entry equal the naive sum over getBranch`, () => {
      const { file, dir } = corpusCopy(name);
      const sm = SessionManager.open(file, dir);
      const entries = sm.getEntries();
      const state = replayProjection(usageTotals, entries);
      for (const entry of entries) {
        const branch = branchUsageTotals(state, entry.id, (id) => sm.getBranch(id));
        expect(branch).toBeDefined();
        const path = sm.getBranch(entry.id);
        expect(naivePath(entries, entry.id)).toEqual(path);
        expect(comparable(branch as NonNullable<typeof branch>)).toEqual(naiveTotals(path));
      }
      // The default leaf is the manager's leaf.
      expect(comparable(computeUsageTotals(sm).branch)).toEqual(naiveTotals(sm.getBranch()));
    });
  }

  it("ref-1.6-branched: summaries and the model change give three keys", () => {
    const { file, dir } = corpusCopy("ref-1.6-branched.jsonl");
    const sm = SessionManager.open(file, dir);
    const { tree, branch } = computeUsageTotals(sm);
    expect(Object.keys(tree.byModel)).toEqual([
      "anthropic/claude-sonnet-4-5",
      UNATTRIBUTED_USAGE_KEY,
      "anthropic/gpt-5",
    ]);
    // The abandoned branch (3 assistant calls and the compaction) is in the tree only.
    expect(tree.records).toBe(8);
    expect(branch.records).toBe(4);
    expect(branch.cost.total).toBeLessThan(tree.cost.total);
  });
});
