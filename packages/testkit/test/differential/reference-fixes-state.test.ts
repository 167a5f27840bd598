/**
 * The documented [Fix] differences from the reference (SPEC §12) in the manager's state: W19
 * (a failed branchWithSummary restores the leaf) and W20 (no state shared with the caller),
 * each shown on both sides. Loaded-file differences are in `reference-fixes.test.ts`.
 */
import { type FileEntry, memoryStore, SessionManager, type SessionSink } from "@pi-sessions/core";
import { memorySink } from "@pi-sessions/core/internal";
import { beforeAll, describe, expect, it } from "vitest";
import { loadReferenceModule, type ReferenceModule } from "../conformance-reference.js";
import { msg, records } from "./fix-records.js";

let R: ReferenceModule;
beforeAll(async () => {
  R = await loadReferenceModule();
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
