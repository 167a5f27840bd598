import type { SessionEntry } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { runStart } from "../../run-start.js";
import { runDemo } from "../src/demo.js";

/** Independent sums: plain loops over the entries, not the plugin's code. */
function sum(entries: readonly SessionEntry[]) {
  let records = 0;
  let tokens = 0;
  let cost = 0;
  for (const e of entries) {
    const usage =
      e.type === "message" && (e.message.role === "assistant" || e.message.role === "toolResult")
        ? e.message.usage
        : e.type === "compaction" || e.type === "branch_summary" || e.type === "usage"
          ? e.usage
          : undefined;
    if (!usage) continue;
    records++;
    tokens += usage.totalTokens;
    cost += usage.cost.total;
  }
  return { records, tokens, cost };
}

describe("agent-loop example", () => {
  const demo = runDemo();

  it("builds every model call's context from the session (tool results, compaction, branch summary)", () => {
    const [t1, t2, t3, t4, t5] = demo.turns;
    expect(t1?.contexts).toEqual([["user"], ["user", "assistant", "toolResult"]]);
    expect(t2?.contexts[0]).toEqual(["user", "assistant", "toolResult", "assistant", "user"]);
    expect(demo.compacted).toBe(true);
    expect(t3?.contexts[0]?.[0]).toBe("compactionSummary");
    // The new branch continues from turn 1's answer with the summary of what was left.
    expect(t4?.contexts[0]).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "branchSummary",
      "user",
    ]);
    // The fork starts from turn 1 only.
    expect(t5?.contexts[0]).toEqual(["user", "assistant", "toolResult", "assistant", "user"]);
    expect(t3?.answer).toBe("The read tool says: export const answer = 42;");
  });

  it("usage totals after every turn match an independent sum over the branch and the tree", () => {
    const sm = demo.original.manager;
    const t4 = demo.turns[3];
    expect(t4?.usage.leafId).toBe(sm.getLeafId());
    const branch = sum(sm.getBranch());
    const tree = sum(sm.getEntries());
    expect(t4?.usage.branch.records).toBe(branch.records);
    expect(t4?.usage.branch.totalTokens).toBe(branch.tokens);
    expect(t4?.usage.branch.cost.total).toBeCloseTo(branch.cost, 12);
    expect(t4?.usage.tree.records).toBe(tree.records);
    expect(t4?.usage.tree.totalTokens).toBe(tree.tokens);
    // Turns 1–3 never branched: branch and tree agreed then; turn 4 left a branch behind.
    for (const t of demo.turns.slice(0, 3)) expect(t.usage.branch).toEqual(t.usage.tree);
    expect(t4?.usage.branch.records).toBeLessThan(t4?.usage.tree.records ?? 0);
    // The bigger model shows up under its own key; the summaries under the shared one.
    expect(Object.keys(t4?.usage.tree.byModel ?? {})).toEqual([
      "toy/small",
      "Tools/summaries",
      "toy/large",
    ]);
  });

  it("the fork copies turn 1 with the same ids, and the combined total counts it once", () => {
    const forkIds = demo.fork.entries.map((e) => e.id);
    expect(forkIds.slice(0, demo.copiedIds.length)).toEqual(demo.copiedIds);
    const original = sum(demo.original.entries);
    const forkOnly = sum(demo.fork.entries.filter((e) => !demo.copiedIds.includes(e.id)));
    expect(demo.combined.total.records).toBe(original.records + forkOnly.records);
    expect(demo.combined.total.totalTokens).toBe(original.tokens + forkOnly.tokens);
    expect(demo.combined.sessions.map((s) => [s.path, s.copiedRecords])).toEqual([
      ["original", 0],
      ["fork", sum(demo.fork.entries).records - forkOnly.records],
    ]);
  });

  it("is deterministic", () => {
    const again = runDemo();
    expect(again.original.entries).toEqual(demo.original.entries);
    expect(again.fork.entries).toEqual(demo.fork.entries);
  });

  it("runs from the README command", () => {
    const run = runStart(import.meta.url);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Turn 1: "List the files"');
    expect(run.stdout).toContain("Both sessions, copies counted once: 12 calls");
    expect(run.stdout).toContain("Transcript of the original session's current branch:");
  });
});
