import { describe, expect, it } from "vitest";
import { runStart } from "../../run-start.js";
import { buildDemoSession } from "../src/build-session.js";
import { renderContext, renderTree } from "../src/render.js";

describe("basic-tree example", () => {
  it("builds a named session with two branches, labels and a compaction", () => {
    const sm = buildDemoSession();
    expect(sm.getSessionName()).toBe("Layout and docs");
    expect(sm.getEntryCount()).toBe(18);
    const roots = sm.getTree();
    expect(roots).toHaveLength(1);
    const tree = renderTree(sm);
    expect(tree.filter((l) => l.includes("#start"))).toHaveLength(1);
    expect(tree.filter((l) => l.includes("← leaf"))).toHaveLength(1);
  });

  it("gives the same session on every build (ids, entry and message timestamps)", () => {
    const json = () => JSON.stringify(buildDemoSession().getEntries());
    expect(json()).toBe(json());
  });

  it("shows the leaf context with the branch summary and the newest model", () => {
    const lines = renderContext(buildDemoSession());
    expect(lines[0]).toBe("model openai/gpt-5, thinking medium");
    expect(lines.slice(1).map((l) => l.split(":")[0])).toEqual([
      "1. user",
      "2. assistant",
      "3. branchSummary",
      "4. user",
      "5. assistant",
    ]);
  });

  it("starts the compacted branch's context with the compaction summary", () => {
    const sm = buildDemoSession();
    const bench = sm.getEntries().find((e) => sm.getLabel(e.id) === "bench");
    expect(bench).toBeDefined();
    sm.branch(bench?.id ?? "");
    const ctx = sm.buildSessionContext();
    expect(ctx.messages[0]?.role).toBe("compactionSummary");
    // Kept from the plan onwards: plan, "Go ahead.", the result, then the two new messages.
    expect(ctx.messages.map((m) => m.role)).toEqual([
      "compactionSummary",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  });
});

describe("basic-tree start script", () => {
  it("runs from the README command and prints the tree and both contexts", () => {
    const run = runStart(import.meta.url);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('— "Layout and docs"');
    expect(run.stdout).toContain("← leaf");
    expect(run.stdout).toContain('Context on the branch labelled "bench" (after its compaction):');
    expect(run.stdout).toContain("1. compactionSummary: Explored src; store.ts now streams.");
  });
});
