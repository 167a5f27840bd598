/**
 * Self-checks of the comparison helpers: a conformance suite whose comparator is blind passes
 * vacuously, so these prove that it does see differences in values, key order, ids and tree
 * shape, and that it ignores exactly what JSON ignores.
 */
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { expectSameView, IdMap, observe, sameModuloIds } from "../../src/internal.js";

describe("conformance helpers", () => {
  it("sameModuloIds: ids through the map, JSON equality otherwise", () => {
    const map = new IdMap();
    map.pair("aaaa1111", "bbbb2222");
    expect(sameModuloIds(map, { id: "aaaa1111", x: 1 }, { id: "bbbb2222", x: 1 })).toBe(true);
    expect(sameModuloIds(map, { id: "aaaa1111" }, { id: "aaaa1111" })).toBe(false);
    expect(sameModuloIds(map, { parentId: "aaaa1111" }, { parentId: "cccc3333" })).toBe(false);
    expect(sameModuloIds(map, { a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe(false);
    expect(sameModuloIds(map, { a: 1, u: undefined }, { a: 1 })).toBe(true);
    expect(sameModuloIds(map, { a: Number.NaN }, { a: Number.NaN })).toBe(true);
    expect(sameModuloIds(map, [1, 2], { 0: 1, 1: 2 })).toBe(false);
    // Key order only counts when asked for (entries, i.e. file lines).
    expect(sameModuloIds(map, { a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameModuloIds(map, { a: 1, b: 2 }, { b: 2, a: 1 }, true)).toBe(false);
    expect(sameModuloIds(map, [{ m: { a: 1, b: 2 } }], [{ m: { b: 2, a: 1 } }], true)).toBe(false);
  });

  it("IdMap: pairs by position, normalises nested ids and error messages", () => {
    const map = new IdMap();
    map.pairByPosition(
      [{ id: "aaaa1111" }, { id: "aaaa2222" }] as never,
      [{ id: "bbbb1111" }, { id: "bbbb2222" }] as never,
    );
    expect(map.all).toEqual(["e0", "e1"]);
    expect(
      map.norm(1, { sourceEntry: { id: "bbbb2222", parentId: "bbbb1111", text: "bbbb1111" } }),
    ).toEqual({
      sourceEntry: { id: "e1", parentId: "e0", text: "bbbb1111" },
    });
    expect(map.message(0, "Entry aaaa2222 is not on the active branch")).toBe(
      "Entry e1 is not on the active branch",
    );
    expect(map.raw(1, "e0")).toBe("bbbb1111");
  });

  it("expectSameView sees a different entry, a different tree and a different leaf", () => {
    const build = (second: string, branchBack: boolean) => {
      // Same clock and id stream on both sides, so only the deliberate change differs.
      const sm = SessionManager.inMemory("/tmp/x", { env: createDeterministicEnv() });
      const a = sm.appendMessage({ role: "user", content: "a", timestamp: 1 });
      if (branchBack) sm.branch(a);
      sm.appendMessage({ role: "user", content: second, timestamp: 2 });
      return sm;
    };
    const views = (x: SessionManager, y: SessionManager) => {
      const map = new IdMap();
      map.pairByPosition(x.getEntries(), y.getEntries());
      return [
        map,
        observe(x, map, 0, { perId: true }),
        observe(y, map, 1, { perId: true }),
      ] as const;
    };
    const same = views(build("b", false), build("b", false));
    expect(() => expectSameView(...same, "same")).not.toThrow();
    const content = views(build("b", false), build("c", false));
    expect(() => expectSameView(...content, "content")).toThrow();
    // A leaf moved without a new entry changes leaf, branch and context only.
    const x = build("b", false);
    const y = build("b", false);
    y.branch(y.getEntries()[0]?.id as string);
    expect(() => expectSameView(...views(x, y), "leaf")).toThrow();
  });
});
