/**
 * The documented [Fix] differences from the reference (SPEC §12), each shown on both sides:
 * ours has the required behaviour, the reference the weakness. These are the places where the
 * conformance suites must NOT expect equality.
 */
import {
  buildSessionContext,
  type FileEntry,
  memoryStore,
  parseSessionEntries,
  SessionManager,
  type SessionSink,
  type SessionTreeNode,
} from "@pi-sessions/core";
import { memorySink } from "@pi-sessions/core/internal";
import { beforeAll, describe, expect, it } from "vitest";
import { loadReferenceModule, type ReferenceModule } from "../conformance-reference.js";

let R: ReferenceModule;
beforeAll(async () => {
  R = await loadReferenceModule();
});

const H = {
  type: "session",
  version: 3,
  id: "s1",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/w",
};
/** A user-message entry with a fixed timestamp (so tree order is file order). */
const msg = (id: string, parentId: string | null, text = id) => ({
  type: "message",
  id,
  parentId,
  timestamp: "2025-01-01T00:00:01.000Z",
  message: { role: "user", content: text, timestamp: 1 },
});
const records = (...entries: object[]) => [H, ...entries] as unknown as FileEntry[];

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

/**
 * Our manager over a store whose sink fails on demand (as a full disk would): the store
 * interface is the injection point.
 */
function failingManager(): SessionManager & { failNext: boolean } {
  let failNext = false;
  const sink: SessionSink = {
    ...memorySink,
    append() {
      if (failNext) {
        failNext = false;
        throw new Error("disk full");
      }
    },
  };
  const sm = SessionManager.withStore({ ...memoryStore, create: () => sink }, "/tmp/x");
  return Object.defineProperty(sm, "failNext", {
    set: (v: boolean) => {
      failNext = v;
    },
  }) as SessionManager & { failNext: boolean };
}

describe("[Fix] W19: a failed branchWithSummary restores the leaf it had before the call", () => {
  it("ours: leaf, entries and context are back to the pre-call state", () => {
    const sm = failingManager();
    const a = sm.appendMessage({ role: "user", content: "a", timestamp: 1 });
    const b = sm.appendMessage({ role: "user", content: "b", timestamp: 2 });
    const before = { entries: sm.getEntries(), context: sm.buildSessionContext() };
    sm.failNext = true;
    expect(() => sm.branchWithSummary(a, "summary")).toThrow("disk full");
    expect(sm.getLeafId()).toBe(b);
    expect(sm.getEntries()).toEqual(before.entries);
    expect(sm.buildSessionContext()).toEqual(before.context);
    // The next append still works and continues from b.
    expect(
      sm.getEntry(sm.appendMessage({ role: "user", content: "c", timestamp: 3 }))?.parentId,
    ).toBe(b);
  });

  it("reference: the entry is rolled back but the leaf stays at the branch point", () => {
    const sm = R.SessionManager.inMemory("/tmp/x");
    const a = sm.appendMessage({ role: "user", content: "a", timestamp: 1 });
    sm.appendMessage({ role: "user", content: "b", timestamp: 2 });
    // Its public per-entry persistence hook is the only injection point in memory.
    sm._persist = () => {
      throw new Error("disk full");
    };
    expect(() => sm.branchWithSummary(a, "summary")).toThrow("disk full");
    expect(sm.getLeafId()).toBe(a);
    expect(sm.getEntries()).toHaveLength(2);
  });
});

describe("[Fix] W20: state is not shared with the caller", () => {
  /** Tries a mutation; ours may hand out frozen objects, which then throw in strict mode. */
  const mutate = (f: () => void) => {
    try {
      f();
    } catch {
      // frozen: the mutation was refused, which is fine
    }
  };

  it("a message object mutated after appendMessage", () => {
    for (const [sm, changes] of [
      [SessionManager.inMemory("/tmp/x"), false],
      [R.SessionManager.inMemory("/tmp/x"), true],
    ] as const) {
      const m = { role: "user" as const, content: "original", timestamp: 1 };
      const id = sm.appendMessage(m);
      m.content = "changed";
      const stored = (sm.getEntry(id) as { message: { content: string } }).message.content;
      expect(stored).toBe(changes ? "changed" : "original");
    }
  });

  it("other payload objects: custom data, compaction details, context-edit replacement", () => {
    for (const [sm, changes] of [
      [SessionManager.inMemory("/tmp/x"), false],
      [R.SessionManager.inMemory("/tmp/x"), true],
    ] as const) {
      const [data, details, replacement] = [{ v: 1 }, { v: 1 }, { content: "edit" }];
      const target = sm.appendMessage({ role: "user", content: "q", timestamp: 1 });
      const ids = [
        sm.appendCustomEntry("ext", data),
        sm.appendCompaction("s", null, 0, details),
        sm.appendContextEdit(target, replacement),
      ];
      data.v = 2;
      details.v = 2;
      replacement.content = "changed";
      expect(ids.map((id) => JSON.stringify(sm.getEntry(id)).includes('"v":2'))).toEqual(
        changes ? [true, true, false] : [false, false, false],
      );
      const edit = sm.getEntry(ids[2] as string) as { replacement: { content: string } };
      expect(edit.replacement.content).toBe(changes ? "changed" : "edit");
    }
  });

  it("the array (and its objects) given to inMemory", () => {
    for (const [factory, changes] of [
      [(r: FileEntry[]) => SessionManager.inMemory("/tmp/x", undefined, r), false],
      [(r: FileEntry[]) => R.SessionManager.inMemory("/tmp/x", undefined, r), true],
    ] as const) {
      const given = records(msg("a", null));
      const sm = factory(given);
      (given[1] as unknown as { message: { content: string } }).message.content = "changed";
      sm.appendMessage({ role: "user", content: "b", timestamp: 2 });
      expect(
        (sm.getEntry("a") as unknown as { message: { content: string } }).message.content,
      ).toBe(changes ? "changed" : "a");
      // The reference even appends to the caller's array.
      expect(given).toHaveLength(changes ? 3 : 2);
    }
  });

  /** Mutates what getEntries/getTree/getHeader return, then reads the state back. */
  const mutateReturned = (
    sm: Pick<SessionManager, "appendMessage" | "getEntries" | "getTree" | "getHeader" | "getEntry">,
  ) => {
    const id = sm.appendMessage({ role: "user", content: "original", timestamp: 1 });
    mutate(() => {
      (sm.getEntries()[0] as { message: { content: string } }).message.content = "via entries";
    });
    mutate(() => {
      (sm.getTree()[0]?.entry as { parentId: string | null }).parentId = "via-tree";
    });
    mutate(() => {
      (sm.getHeader() as { cwd: string }).cwd = "/elsewhere";
    });
    const entry = sm.getEntry(id) as { parentId: string | null; message: { content: string } };
    return { content: entry.message.content, parentId: entry.parentId, cwd: sm.getHeader()?.cwd };
  };

  it("reference: objects returned by getEntries, getTree and getHeader are its state", () => {
    expect(mutateReturned(R.SessionManager.inMemory("/tmp/x"))).toEqual({
      content: "via entries",
      parentId: "via-tree",
      cwd: "/elsewhere",
    });
  });
});
