/**
 * The documented [Fix] differences from the reference (SPEC §12) in what a loaded session may
 * hold (W6 non-object lines, W14 parent cycles, W15 duplicate ids), each shown on both sides:
 * ours has the required behaviour, the reference the weakness. These are the places where the
 * conformance suites must NOT expect equality. Failed writes and shared state (W19, W20) are in
 * `reference-fixes-state.test.ts`.
 */
import {
  buildSessionContext,
  type FileEntry,
  parseSessionEntries,
  SessionManager,
  type SessionTreeNode,
} from "@pi-sessions/core";
import { beforeAll, describe, expect, it } from "vitest";
import { loadReferenceModule, type ReferenceModule } from "../conformance-reference.js";
import { H, msg, records } from "./fix-records.js";

let R: ReferenceModule;
beforeAll(async () => {
  R = await loadReferenceModule();
});

/** Every node of a tree in preorder (iterative, and safe on the reference's shared nodes). */
function nodes(roots: readonly SessionTreeNode[]): SessionTreeNode[] {
  const out: SessionTreeNode[] = [];
  const stack = [...roots].reverse();
  for (let n = stack.pop(); n; n = stack.pop()) {
    out.push(n);
    stack.push(...[...n.children].reverse());
  }
  return out;
}
const treeIds = (sm: { getTree(): SessionTreeNode[] }) =>
  nodes(sm.getTree()).map((n) => n.entry.id);

describe("[Fix] W6: JSON lines that are not objects are malformed", () => {
  const text = [
    JSON.stringify(H),
    "42",
    '"str"',
    "[1,2]",
    "true",
    "null",
    JSON.stringify(msg("a", null)),
  ].join("\n");

  it("parseSessionEntries: ours skips them, the reference keeps them as records", () => {
    expect(parseSessionEntries(text).map((r) => (r as { id?: string }).id)).toEqual(["s1", "a"]);
    expect(R.parseSessionEntries(text)).toEqual([H, 42, "str", [1, 2], true, null, msg("a", null)]);
  });

  it("a scalar last line: the reference loses the leaf and the context, ours does not", () => {
    const tail = `${JSON.stringify(H)}\n${JSON.stringify(msg("a", null))}\n42\n`;
    const ref = R.SessionManager.inMemory(
      "/tmp/x",
      undefined,
      R.parseSessionEntries(tail) as FileEntry[],
    );
    expect(ref.getLeafId()).toBeUndefined();
    expect(ref.buildSessionContext().messages).toEqual([]);
    const ours = SessionManager.inMemory(
      "/tmp/x",
      undefined,
      parseSessionEntries(tail) as FileEntry[],
    );
    expect(ours.getLeafId()).toBe("a");
    expect(ours.buildSessionContext().messages).toHaveLength(1);
    // Even when handed the reference's parse (scalar included), ours ignores the scalar.
    const fed = SessionManager.inMemory(
      "/tmp/x",
      undefined,
      R.parseSessionEntries(tail) as FileEntry[],
    );
    expect(fed.getLeafId()).toBe("a");
    expect(
      fed.getEntry(fed.appendMessage({ role: "user", content: "next", timestamp: 2 }))?.parentId,
    ).toBe("a");
  });
});

describe("[Fix] W14: parent cycles cannot hang walks, and getTree shows every entry", () => {
  // r is a normal root, s is self-parented, a <-> b is a 2-cycle; the last entry (the default
  // leaf) is a cycle member.
  const cyc = () =>
    records(msg("r", null), msg("s", "s"), msg("z", "r"), msg("a", "b"), msg("b", "a"));

  it("ours: getBranch and buildSessionContext terminate at every leaf", () => {
    const ours = SessionManager.inMemory("/tmp/x", undefined, cyc());
    expect(ours.getLeafId()).toBe("b");
    expect(ours.getBranch("s").map((e) => e.id)).toEqual(["s"]);
    expect(ours.getBranch("z").map((e) => e.id)).toEqual(["r", "z"]);
    for (const id of ["a", "b"]) {
      const path = ours.getBranch(id).map((e) => e.id);
      expect(path.at(-1)).toBe(id);
      expect(new Set(path).size).toBe(path.length);
      ours.branch(id);
      expect(ours.buildSessionContext().messages.length).toBe(path.length);
      expect(buildSessionContext(ours.getEntries(), id).messages.length).toBe(path.length);
    }
  });

  it("ours: getTree contains every entry exactly once; the cycle is broken at its first member", () => {
    const ours = SessionManager.inMemory("/tmp/x", undefined, cyc());
    expect(treeIds(ours).sort()).toEqual(["a", "b", "r", "s", "z"]);
    expect(ours.getTree().map((n) => n.entry.id)).toEqual(["r", "s", "a"]);
    expect(ours.getLoadDiagnostics().length).toBeGreaterThan(0);
  });

  it("reference: getTree hides the 2-cycle (getBranch is not called: it never returns)", () => {
    const ref = R.SessionManager.inMemory("/tmp/x", undefined, cyc());
    expect(treeIds(ref).sort()).toEqual(["r", "s", "z"]);
    expect(ref.getEntryCount()).toBe(5);
  });
});

describe("[Fix] W15: duplicate ids give one tree node per id", () => {
  const dup = () =>
    records(msg("r", null), msg("a", "r", "first"), msg("a", "r", "second"), msg("z", "a"));

  it("both: the later duplicate wins lookups and paths", () => {
    for (const sm of [
      SessionManager.inMemory("/tmp/x", undefined, dup()),
      R.SessionManager.inMemory("/tmp/x", undefined, dup()),
    ]) {
      expect((sm.getEntry("a") as { message: { content: string } }).message.content).toBe("second");
      expect(
        sm.getBranch("z").map((e) => (e as { message: { content: string } }).message.content),
      ).toEqual(["r", "second", "z"]);
      expect(sm.getEntryCount()).toBe(3);
      expect(sm.getEntries()).toHaveLength(4);
    }
  });

  it("ours: each id appears once in getTree; the reference shows the same node twice", () => {
    const ours = SessionManager.inMemory("/tmp/x", undefined, dup());
    expect(treeIds(ours)).toEqual(["r", "a", "z"]);
    const ref = R.SessionManager.inMemory("/tmp/x", undefined, dup());
    const [first, second] = ref.getTree()[0]?.children ?? [];
    expect(treeIds(ref)).toEqual(["r", "a", "z", "a", "z"]);
    expect(first).toBe(second);
  });
});
