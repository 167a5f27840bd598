/**
 * The worked example of docs/usage.md, run through the real code: the page's figures must be
 * what the functions return, so the page cannot drift from the code.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FileEntry } from "@pi-sessions/core";
import { computeUsageTotals } from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";

const page = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "usage.md"),
  "utf8",
);

/** The records of the page's one ```jsonl block. */
function exampleRecords(): FileEntry[] {
  const block = /```jsonl\n([\s\S]*?)```/.exec(page)?.[1] ?? "";
  return block
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as FileEntry);
}

describe("docs/usage.md example", () => {
  it("has the totals, branch and warning the page shows", () => {
    const records = exampleRecords();
    expect(records).toHaveLength(5);
    const { tree, branch, leafId, diagnostics } = computeUsageTotals(records);
    expect(leafId).toBe("w1");
    expect([tree.records, tree.input, tree.output, tree.cacheRead, tree.cacheWrite]).toEqual([
      3, 110, 25, 70, 5,
    ]);
    expect(tree.totalTokens).toBe(210);
    expect([branch.records, branch.input, branch.output, branch.totalTokens]).toEqual([
      2, 10, 5, 90,
    ]);
    expect(tree.cost.total).toBeCloseTo(0.0009, 12);
    expect(diagnostics.map((d) => d.message)).toEqual([
      "entry w1 (usage): usage.output is -3; not counted",
    ]);
    expect(page).toContain(`warning: /tmp/usex/p/example.jsonl: ${diagnostics[0]?.message}`);
    const row = (label: string) =>
      page
        .split("\n")
        .find((l) => l.startsWith(label))
        ?.slice(label.length)
        .trim()
        .split(/\s+/);
    expect(row("whole tree ")).toEqual(["3", "110", "25", "70", "5", "210", "$0.0009"]);
    expect(row("branch at w1 (current leaf) ")).toEqual([
      "2",
      "10",
      "5",
      "70",
      "5",
      "90",
      "$0.0003",
    ]);
  });
});
