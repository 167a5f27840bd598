/**
 * The bus dispatches through mitt itself: every event a manager delivers goes through the
 * real mitt emitter's `emit` (observed here by wrapping the real factory, which still does
 * all the work), wildcard handlers follow mitt's rules, and isolation still holds because
 * mitt calls each handler through a guard that catches its error.
 */
import type { SessionEventMap, SessionEventName } from "@pi-sessions/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fresh, user } from "./fixtures.js";

/** Every `emit(type)` made on a mitt emitter created while this file runs. */
const mittEmits: string[] = [];

vi.mock("mitt", async (importOriginal) => {
  const real = (await importOriginal()) as { default: unknown };
  // mitt's ES build exports the factory as default; its CommonJS typings put it under .default.
  const factory = (
    typeof real.default === "function"
      ? real.default
      : (real.default as { default: unknown }).default
  ) as (...args: unknown[]) => { emit: (type: string, payload?: unknown) => void };
  const observed = (...args: unknown[]) => {
    const emitter = factory(...args);
    const emit = emitter.emit;
    emitter.emit = (type, payload) => {
      mittEmits.push(type);
      emit(type, payload);
    };
    return emitter;
  };
  return { default: observed };
});

type Seen = { [K in SessionEventName]: [K, SessionEventMap[K]] }[SessionEventName];

beforeEach(() => {
  mittEmits.length = 0;
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("bus: mitt dispatches", () => {
  it("a handler registered through sm.events is called by mitt's emit, once per event", () => {
    const sm = fresh();
    const heard: string[] = [];
    sm.events.on("entryAppended", ({ entry }) => heard.push(entry.id));
    const a = sm.appendMessage(user("one"));
    sm.appendMessage(user("two"));
    sm.branch(a); // leafMoved: nobody listens, so mitt is not asked
    expect(heard).toHaveLength(2);
    expect(mittEmits).toEqual(["entryAppended", "entryAppended"]);
  });

  it("nobody listening: mitt is never asked and no payload is built", () => {
    const sm = fresh();
    sm.appendMessage(user("quiet"));
    expect(mittEmits).toEqual([]);
  });

  it("wildcard handlers get (type, payload) after the event's own handlers, as mitt defines", () => {
    const sm = fresh();
    const order: string[] = [];
    sm.events.on("*", (type) => order.push(`*:${type}`));
    sm.events.on("entryAppended", () => order.push("own"));
    const seen: Seen[] = [];
    sm.events.on("*", (type, payload) => seen.push([type, payload] as Seen));
    const id = sm.appendMessage(user("hi"));
    expect(order).toEqual(["own", "*:entryAppended"]);
    expect(seen).toEqual([["entryAppended", { entry: sm.getEntry(id), leafId: id }]]);
    expect(mittEmits).toEqual(["entryAppended"]);
  });

  it("a wildcard handler added by an own handler hears that same event (mitt reads `*` after)", () => {
    const sm = fresh();
    const late: string[] = [];
    let added = false;
    sm.events.on("entryAppended", () => {
      if (added) return;
      added = true;
      sm.events.on("*", (type) => late.push(type));
    });
    sm.appendMessage(user("hi"));
    expect(late).toEqual(["entryAppended"]);
  });

  it("a throwing own or wildcard handler is isolated: mitt goes on, the append stands", () => {
    const sm = fresh();
    const errors: SessionEventMap["handlerError"][] = [];
    const after: string[] = [];
    sm.events.on("handlerError", (e) => errors.push(e));
    sm.events.on("entryAppended", () => {
      throw new Error("own");
    });
    sm.events.on("*", (type) => {
      if (type === "entryAppended") throw new Error("wild");
    });
    sm.events.on("*", (type) => after.push(type));
    const id = sm.appendMessage(user("hi"));
    expect(sm.getLeafId()).toBe(id);
    // The error events come after the event itself, through mitt too.
    expect(after).toEqual(["entryAppended", "handlerError", "handlerError"]);
    expect(errors.map((e) => [e.event, (e.error as Error).message])).toEqual([
      ["entryAppended", "own"],
      ["entryAppended", "wild"],
    ]);
    expect(mittEmits).toEqual(["entryAppended", "handlerError", "handlerError"]);
  });

  it("one handler registered twice runs twice; off removes one registration, oldest first", () => {
    const sm = fresh();
    let calls = 0;
    const handler = () => {
      calls++;
    };
    const stopFirst = sm.events.on("entryAppended", handler);
    sm.events.on("entryAppended", handler);
    expect(sm.events.listenerCount("entryAppended")).toBe(2);
    sm.appendMessage(user("1"));
    expect(calls).toBe(2);
    sm.events.off("entryAppended", handler);
    expect(sm.events.listenerCount("entryAppended")).toBe(1);
    stopFirst(); // its registration is already gone: the second one stays
    expect(sm.events.listenerCount("entryAppended")).toBe(1);
    sm.appendMessage(user("2"));
    expect(calls).toBe(3);
    sm.events.off("entryAppended", handler);
    sm.appendMessage(user("3"));
    expect(calls).toBe(3);
    expect(sm.events.listenerCount("entryAppended")).toBe(0);
  });

  it("off('*', handler) and off('*') unsubscribe wildcard handlers", () => {
    const sm = fresh();
    const a: string[] = [];
    const b: string[] = [];
    const onA = (type: string) => a.push(type);
    sm.events.on("*", onA);
    sm.events.on("*", (type) => b.push(type));
    sm.events.off("*", onA);
    sm.appendMessage(user("1"));
    sm.events.off("*");
    sm.appendMessage(user("2"));
    expect(a).toEqual([]);
    expect(b).toEqual(["entryAppended"]);
    expect(sm.events.listenerCount("*")).toBe(0);
  });
});
