import { readFileSync, writeFileSync } from "node:fs";
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
import { comparable, naiveDiagnostics, naivePath, naiveTotals } from "./usage-oracle.js";

type Raw = Record<string, unknown>;

/** The records of a file (header dropped), read as plain JSON. */
function rawRecords(file: string): Raw[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Raw)
    .slice(1);
}

/** The assistant usages of raw records (the only usage large-session.jsonl holds). */
function assistantUsages(records: readonly Raw[]): Raw[] {
  return records.flatMap((r) => {
    const m = r.message as Raw | undefined;
    return r.type === "message" && m?.role === "assistant" ? [m.usage as Raw] : [];
  });
}

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

  it("large-session.jsonl (no totalTokens anywhere): total tokens = Σ input + output + cacheRead + cacheWrite", () => {
    const name = "large-session.jsonl";
    const usages = assistantUsages(rawRecords(join(CORPUS_DIR, name)));
    expect(usages.length).toBe(453);
    expect(usages.every((u) => !("totalTokens" in u))).toBe(true);
    const four = (u: Raw) =>
      (u.input as number) +
      (u.output as number) +
      (u.cacheRead as number) +
      (u.cacheWrite as number);
    const expected = usages.reduce((n, u) => n + four(u), 0);
    // The figure pi's /session shows for this file; before the fallback we showed 0.
    expect(expected).toBe(47_609_906);
    const { file, dir } = corpusCopy(name);
    const { tree, branch, diagnostics } = computeUsageTotals(SessionManager.open(file, dir));
    expect(tree.totalTokens).toBe(expected);
    expect(branch.totalTokens).toBe(expected); // a single-branch file
    expect(tree.byModel["anthropic/claude-sonnet-4-5"]?.totalTokens).toBe(expected);
    expect(diagnostics).toEqual([]);
  });

  it("large-session.jsonl with one negative output: a diagnostic with the entry id, not summed", () => {
    const { file, dir } = corpusCopy("large-session.jsonl");
    const lines = readFileSync(file, "utf8").split("\n");
    const at = lines.findIndex((l) => l.includes('"output":191,'));
    expect(at).toBeGreaterThan(0);
    writeFileSync(
      file,
      lines.map((l, i) => (i === at ? l.replace('"output":191,', '"output":-191,') : l)).join("\n"),
    );
    const sm = SessionManager.open(file, dir);
    const { tree, diagnostics } = computeUsageTotals(sm);
    const entry = sm.getEntries()[at - 1];
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      entryId: entry?.id,
      source: "assistant",
      field: "output",
      value: -191,
    });
    expect(diagnostics.map(({ entryId, field, value }) => ({ entryId, field, value }))).toEqual(
      naiveDiagnostics(sm.getEntries()),
    );
    // 191 less output than the original, and the total tokens lose the same 191.
    expect(tree.output).toBe(83_156 - 191);
    expect(tree.totalTokens).toBe(47_609_906 - 191);
    expect(comparable(tree)).toEqual(naiveTotals(sm.getEntries()));
  });
});
