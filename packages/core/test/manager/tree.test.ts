import type { SessionTreeNode } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { load } from "./fixtures.js";

const ids = (nodes: SessionTreeNode[]): string[] => nodes.map((n) => n.entry.id);
const e = (id: string, parentId: string | null, ts = "2025-01-01T10:00:00.000Z") =>
  JSON.stringify({ type: "custom", customType: "x", id, parentId, timestamp: ts });

describe("tree (SPEC §7.6–§7.8, §13 item 8)", () => {
  it("roots in file order: null parent, orphans, self-parent", () => {
    const sm = load([e("b", "missing"), e("a", null), e("s", "s"), e("c", "a")].join("\n"));
    expect(ids(sm.getTree())).toEqual(["b", "a", "s"]);
    expect(sm.getBranch("b").map((x) => x.id)).toEqual(["b"]);
    expect(sm.getBranch("s").map((x) => x.id)).toEqual(["s"]);
  });

  it("children sorted by timestamp, stable for ties, invalid timestamps last; getChildren in file order", () => {
    const sm = load(
      [
        e("r", null),
        e("x", "r", "2025-01-01T10:00:03.000Z"),
        e("bad", "r", "not a date"),
        e("y", "r", "2025-01-01T10:00:01.000Z"),
        e("z1", "r", "2025-01-01T10:00:02.000Z"),
        e("z2", "r", "2025-01-01T10:00:02.000Z"),
      ].join("\n"),
    );
    expect(ids(sm.getTree()[0]?.children ?? [])).toEqual(["y", "z1", "z2", "x", "bad"]);
    expect(sm.getChildren("r").map((x) => x.id)).toEqual(["x", "bad", "y", "z1", "z2"]);
    expect(sm.getChildren("nobody")).toEqual([]);
  });

  it("cycles cannot hang walks and every member appears once (W14)", () => {
    const sm = load([e("a", "b"), e("b", "a"), e("c", "b"), e("r", null)].join("\n"));
    expect(sm.getBranch("c").map((x) => x.id)).toEqual(["a", "b", "c"]);
    expect(sm.getBranch("a").map((x) => x.id)).toEqual(["b", "a"]);
    const tree = sm.getTree();
    // The cycle is cut at its first member in file order, which becomes a root.
    expect(ids(tree)).toEqual(["a", "r"]);
    expect(ids(tree[0]?.children ?? [])).toEqual(["b"]);
    expect(ids(tree[0]?.children[0]?.children ?? [])).toEqual(["c"]);
    sm.branch("c");
    expect(sm.buildSessionContext().messages).toEqual([]);
    const kinds = sm.getLoadDiagnostics().map((d) => d.kind);
    expect(kinds).toContain("cycle");
  });

  it("duplicate ids: last wins for lookups, one tree node per id, reported (W15)", () => {
    const sm = load([e("a", null), e("b", "a"), e("b", null)].join("\n"));
    expect(sm.getEntry("b")?.parentId).toBeNull();
    expect(ids(sm.getTree())).toEqual(["a", "b"]);
    expect(sm.getEntryCount()).toBe(2);
    expect(sm.getLoadDiagnostics().map((d) => d.kind)).toEqual(["duplicate-id"]);
  });

  it("deep trees do not overflow the stack", () => {
    const lines = [e("n0", null)];
    for (let i = 1; i < 50_000; i++) lines.push(e(`n${i}`, `n${i - 1}`));
    const sm = load(lines.join("\n"));
    let depth = 0;
    let node = sm.getTree()[0];
    while (node) {
      depth++;
      node = node.children[0];
    }
    expect(depth).toBe(50_000);
    expect(sm.getBranch().length).toBe(50_000);
  });

  it("resetLeaf: empty branch, no leaf entry, next append is a new root", () => {
    const sm = load(e("a", null));
    sm.resetLeaf();
    expect(sm.getLeafId()).toBeNull();
    expect(sm.getLeafEntry()).toBeUndefined();
    expect(sm.getBranch()).toEqual([]);
    expect(sm.buildSessionContext()).toEqual({ messages: [], thinkingLevel: "off", model: null });
    const id = sm.appendCustomEntry("x");
    expect(sm.getEntry(id)?.parentId).toBeNull();
    expect(() => sm.branch("nope")).toThrow("Entry nope not found");
  });
});
