import type { SessionEventMap, SessionEventName } from "@pi-sessions/core";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { assistant, fresh, user } from "./fixtures.js";

type Seen = { [K in SessionEventName]: [K, SessionEventMap[K]] }[SessionEventName];

/** Records every event of a manager, in delivery order. */
function record(sm: SessionManager): Seen[] {
  const seen: Seen[] = [];
  sm.events.on("*", (type, payload) => seen.push([type, payload] as Seen));
  return seen;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("bus: entryAppended", () => {
  it("fires once per append, in order, with the stored entry as the new leaf", () => {
    const sm = fresh();
    const seen = record(sm);
    const a = sm.appendMessage(user("hi"));
    const b = sm.appendCustomEntry("x", { n: 1 });
    const c = sm.appendLabelChange(a, "start");
    expect(seen.map(([t]) => t)).toEqual(["entryAppended", "entryAppended", "entryAppended"]);
    const ids = seen.map(([, p]) => (p as SessionEventMap["entryAppended"]).entry.id);
    expect(ids).toEqual([a, b, c]);
    for (const [, p] of seen) {
      const e = p as SessionEventMap["entryAppended"];
      expect(e.leafId).toBe(e.entry.id);
      expect(e.entry).toBe(sm.getEntry(e.entry.id));
    }
  });

  it("fires after commit: the handler sees the entry and the leaf through the manager", () => {
    const sm = fresh();
    const observed: Array<{ found: boolean; leaf: string | null; count: number }> = [];
    sm.events.on("entryAppended", ({ entry }) => {
      observed.push({
        found: sm.getEntry(entry.id) !== undefined,
        leaf: sm.getLeafId(),
        count: sm.getEntries().length,
      });
    });
    const a = sm.appendMessage(user("one"));
    const b = sm.appendMessage(assistant("two"));
    expect(observed).toEqual([
      { found: true, leaf: a, count: 1 },
      { found: true, leaf: b, count: 2 },
    ]);
  });

  it("a throwing handler is isolated: the append succeeds, later handlers run, the error is reported", () => {
    const sm = fresh();
    const errors: SessionEventMap["handlerError"][] = [];
    const after: string[] = [];
    sm.events.on("handlerError", (e) => errors.push(e));
    sm.events.on("entryAppended", () => {
      throw new Error("boom");
    });
    sm.events.on("entryAppended", ({ entry }) => after.push(entry.id));
    const id = sm.appendMessage(user("hi"));
    expect(sm.getLeafId()).toBe(id);
    expect(after).toEqual([id]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.event).toBe("entryAppended");
    expect(errors[0]?.error).toEqual(new Error("boom"));
  });

  it("without handlerError listeners errors go to onHandlerError, else console.error", () => {
    const reported: Array<[unknown, string]> = [];
    const sm = SessionManager.inMemory("/tmp/proj", {
      env: createDeterministicEnv({ seed: 2 }),
      onHandlerError: (error, event) => reported.push([error, event]),
    });
    sm.events.on("leafMoved", () => {
      throw new Error("leaf handler");
    });
    const a = sm.appendMessage(user("a"));
    sm.appendMessage(user("b"));
    sm.branch(a);
    expect(reported.map(([e, ev]) => [(e as Error).message, ev])).toEqual([
      ["leaf handler", "leafMoved"],
    ]);

    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const plain = fresh();
    plain.events.on("entryAppended", () => {
      throw new Error("loud");
    });
    plain.appendMessage(user("x"));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(String(spy.mock.calls[0]?.[0])).toContain('"entryAppended"');
  });

  it("a throwing handlerError handler is not re-emitted (no loop) and goes to the reporter", () => {
    const reported: string[] = [];
    const sm = SessionManager.inMemory("/tmp/proj", {
      onHandlerError: (_e, event) => reported.push(event),
    });
    let calls = 0;
    sm.events.on("handlerError", () => {
      calls++;
      throw new Error("again");
    });
    sm.events.on("entryAppended", () => {
      throw new Error("first");
    });
    sm.appendMessage(user("x"));
    expect(calls).toBe(1);
    // Reported twice: the first error (onHandlerError sees every error) and the loop breaker.
    expect(reported).toEqual(["entryAppended", "handlerError"]);
  });

  it("events emitted by a handler are delivered after the current event, in commit order", () => {
    const sm = fresh();
    const order: string[] = [];
    sm.events.on("entryAppended", ({ entry }) => {
      order.push(`first:${entry.type}`);
      // React to a message by appending a custom entry (re-entrant append).
      if (entry.type === "message") sm.appendCustomEntry("echo", { of: entry.id });
    });
    sm.events.on("entryAppended", ({ entry }) => order.push(`second:${entry.type}`));
    sm.appendMessage(user("hi"));
    expect(order).toEqual(["first:message", "second:message", "first:custom", "second:custom"]);
    expect(sm.getEntries().map((e) => e.type)).toEqual(["message", "custom"]);
  });

  it("unsubscribing stops delivery; off without a handler removes all", () => {
    const sm = fresh();
    const seen: string[] = [];
    const stop = sm.events.on("entryAppended", () => seen.push("a"));
    sm.events.on("entryAppended", () => seen.push("b"));
    expect(sm.events.listenerCount("entryAppended")).toBe(2);
    sm.appendMessage(user("1"));
    stop();
    sm.appendMessage(user("2"));
    sm.events.off("entryAppended");
    sm.appendMessage(user("3"));
    expect(seen).toEqual(["a", "b", "b"]);
    expect(sm.events.listenerCount("entryAppended")).toBe(0);
  });
});

describe("bus: leafMoved", () => {
  it("branch and resetLeaf announce real moves only", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("a"));
    const b = sm.appendMessage(user("b"));
    const seen = record(sm);
    sm.branch(a);
    sm.branch(a); // no move
    sm.resetLeaf();
    sm.resetLeaf(); // no move
    sm.branch(b);
    expect(seen).toEqual([
      ["leafMoved", { from: b, to: a }],
      ["leafMoved", { from: a, to: null }],
      ["leafMoved", { from: null, to: b }],
    ]);
  });

  it("branchWithSummary: leafMoved to the branch point, then entryAppended of the summary", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("a"));
    const b = sm.appendMessage(user("b"));
    const seen = record(sm);
    const s = sm.branchWithSummary(a, "left b behind");
    expect(seen.map(([t]) => t)).toEqual(["leafMoved", "entryAppended"]);
    expect(seen[0]?.[1]).toEqual({ from: b, to: a });
    const appended = seen[1]?.[1] as SessionEventMap["entryAppended"];
    expect(appended.entry).toMatchObject({ id: s, parentId: a, type: "branch_summary" });
  });

  it("a failed operation emits nothing", () => {
    const sm = fresh();
    sm.appendMessage(user("a"));
    const seen = record(sm);
    expect(() => sm.branch("nope")).toThrow("Entry nope not found");
    expect(() => sm.branchWithSummary("nope", "s")).toThrow("Entry nope not found");
    expect(() => sm.appendLabelChange("nope", "x")).toThrow("Entry nope not found");
    expect(seen).toEqual([]);
  });
});
