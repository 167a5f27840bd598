import {
  type ContextRole,
  defineProjection,
  type LabelsRole,
  memoryStore,
  type QueuedWrite,
  queuedSink,
  type SessionEntry,
  SessionManager,
  type SessionMessageEntry,
  type SessionStore,
} from "@pi-sessions/core";
import { describe, expect, it } from "vitest";

const user = (text: string) => ({ role: "user" as const, content: text, timestamp: 1 });

/** A context builder that sends only the leaf's last message (an embedder's own policy). */
const lastMessageOnly: ContextRole<number> = {
  name: "context",
  init: () => 0,
  apply: (n) => n + 1,
  context(_n, leaf) {
    const last = leaf
      .path()
      .filter((e): e is SessionMessageEntry => e.type === "message")
      .at(-1);
    return {
      messages: last ? [last.message] : [],
      thinkingLevel: "off",
      model: null,
    };
  },
};

describe("built-in roles are replaceable by name", () => {
  it("an embedder's context builder answers buildSessionContext; paths and compaction still work", () => {
    const sm = SessionManager.inMemory("/tmp/p", { projections: [lastMessageOnly] });
    const a = sm.appendMessage(user("a"));
    sm.appendMessage(user("b"));
    expect(sm.buildSessionContext().messages).toEqual([user("b")]);
    expect(sm.getProjectionState("context")).toBe(2);
    sm.branch(a);
    expect(sm.buildSessionContext().messages).toEqual([user("a")]);
    expect(sm.getBranch().map((e) => e.id)).toEqual([a]);
    expect(() => sm.appendCompaction("s", a, 1)).not.toThrow();
  });

  it("a labels role of one's own answers getLabel and the tree", () => {
    const shout: LabelsRole<Map<string, string>> = {
      name: "labels",
      types: ["label"],
      init: () => new Map(),
      apply: (m, e) => new Map(m).set((e as { targetId: string }).targetId, "LOUD"),
      labelOf: (m, id) => (m.has(id) ? { label: m.get(id) as string, timestamp: "t" } : undefined),
      labels: (m) => new Map([...m].map(([k, v]) => [k, { label: v, timestamp: "t" }])),
    };
    const sm = SessionManager.inMemory("/tmp/p", { projections: [shout] });
    const a = sm.appendMessage(user("a"));
    sm.appendLabelChange(a, "quiet");
    expect(sm.getLabel(a)).toBe("LOUD");
    expect(sm.getTree()[0]?.label).toBe("LOUD");
  });

  it("a same-named projection without the role's queries is refused with a clear error", () => {
    const plain = defineProjection({ name: "labels", init: () => 0, apply: (n: number) => n + 1 });
    expect(() => SessionManager.inMemory("/tmp/p", { projections: [plain] })).toThrow(
      'Projection "labels" replaces the built-in one of that name and must implement labelOf, labels',
    );
  });
});

/** A store whose writes are recorded asynchronously, per session location. */
function recordingStore(fail = false) {
  const writes: { location: string; write: QueuedWrite }[] = [];
  let n = 0;
  const store: SessionStore = {
    ...memoryStore,
    persisted: true,
    dir: "mem",
    locationOf: () => `mem/${n}`,
    create(header, entries, when) {
      const location = `mem/${n++}`;
      const sink = queuedSink({
        location,
        write: async (write) => {
          await new Promise((r) => setTimeout(r, 1));
          if (fail) throw new Error(`lost ${location}`);
          writes.push({ location, write });
        },
      });
      if (when === "now" || entries.some((e) => e.type === "message")) {
        sink.createWith({ header, entries });
      }
      return sink;
    },
  };
  return { store, writes };
}

/** What the store holds for one location: its first write's entries, then the appends. */
function stored(writes: ReturnType<typeof recordingStore>["writes"], location: string) {
  const out: SessionEntry[] = [];
  for (const w of writes.filter((x) => x.location === location)) {
    if (w.write.kind === "create") out.push(...w.write.content.entries);
    else out.push(w.write.entry);
  }
  return out;
}

describe("asynchronous stores across session switches", () => {
  it("a branched session's first write holds its entries once, later appends once", async () => {
    const { store, writes } = recordingStore();
    const sm = SessionManager.withStore(store, "/tmp/p");
    const a = sm.appendMessage(user("a"));
    sm.appendMessage(user("b"));
    const file = sm.createBranchedSession(a) as string;
    sm.appendMessage(user("c"));
    sm.appendMessage(user("d"));
    await sm.flush();
    expect(stored(writes, file)).toEqual(sm.getEntries());
  });

  it("flush() waits for the writes of the session switched away from, and reports their failure", async () => {
    const ok = recordingStore();
    const sm = SessionManager.withStore(ok.store, "/tmp/p");
    sm.appendMessage(user("a"));
    const first = sm.getSessionFile() as string;
    const entries = sm.getEntries();
    sm.newSession();
    await sm.flush();
    expect(stored(ok.writes, first)).toEqual(entries);

    const bad = SessionManager.withStore(recordingStore(true).store, "/tmp/p");
    bad.appendMessage(user("a"));
    bad.newSession();
    await expect(bad.flush()).rejects.toThrow("lost mem/0");
    await expect(bad.flush()).resolves.toBeUndefined();
  });
});
