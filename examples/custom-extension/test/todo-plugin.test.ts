import { SessionManager } from "@pi-sessions/core";
import { decodePayload, foldBranchState, installPlugins, renderEntry } from "@pi-sessions/plugins";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import {
  applyTodo,
  openTitles,
  slug,
  type TodoState,
  todo,
  todoActivity,
  todoPlugin,
  upcastTodoV1,
} from "../src/todo-plugin.js";

const empty: TodoState = { items: [], unknownIds: [] };

describe("todo codec and upcaster", () => {
  it("reads v2 as stored and v1 upcast, refusing what neither version wrote", () => {
    expect(decodePayload(todo, { v: 2, op: "done", id: "x" })).toEqual(
      E.right({ value: { v: 2, op: "done", id: "x" }, storedVersion: 2 }),
    );
    expect(decodePayload(todo, { action: "add", text: "Ship It!" })).toEqual(
      E.right({ value: { op: "add", id: "ship-it", title: "Ship It!" }, storedVersion: 1 }),
    );
    expect(upcastTodoV1({ action: "check", text: "Ship it" })).toEqual({
      op: "done",
      id: "ship-it",
    });
    expect(() => upcastTodoV1({ op: "add" })).toThrow("not a v1 todo");
    const bad = decodePayload(todo, { v: 2, op: "add", id: "x" });
    expect(E.isLeft(bad) && bad.left.message).toContain("data.title: missing");
    expect(slug("  Tag v1.0 ")).toBe("tag-v1-0");
  });
});

describe("todo reducer", () => {
  it("adds, completes and reopens; unknown ids are kept visible", () => {
    let s = applyTodo(empty, { op: "add", id: "a", title: "A" });
    s = applyTodo(s, { op: "add", id: "b", title: "B" });
    s = applyTodo(s, { op: "done", id: "a" });
    expect(openTitles(s)).toEqual(["B"]);
    s = applyTodo(s, { op: "reopen", id: "a" });
    s = applyTodo(s, { op: "done", id: "zzz" });
    expect(openTitles(s)).toEqual(["A", "B"]);
    expect(s.unknownIds).toEqual(["zzz"]);
    expect(empty).toEqual({ items: [], unknownIds: [] });
  });

  it("each branch has its own list; the host agrees with a fold of getBranch()", () => {
    const sm = SessionManager.inMemory("/tmp/todo");
    const host = installPlugins(sm, [todoPlugin]);
    const root = host.appendCustom(todo, { op: "add", id: "a", title: "A" });
    host.appendCustom(todo, { op: "done", id: "a" });
    expect(openTitles(host.branchState(todoPlugin))).toEqual([]);
    sm.branch(root);
    expect(openTitles(host.branchState(todoPlugin))).toEqual(["A"]);
    sm.appendCustomEntry("todo", { action: "add", text: "B" });
    expect(host.branchState(todoPlugin)).toEqual(foldBranchState(todoPlugin, sm.getBranch()));
    expect(host.projectionState(todoActivity)).toEqual({
      add: 2,
      done: 1,
      reopen: 0,
      unreadable: 0,
    });
  });
});

describe("todo renderers", () => {
  it("render decoded data, v1 included, and fall back to the default for broken data", () => {
    const renderers = installPlugins(SessionManager.inMemory("/tmp/t"), [
      todoPlugin,
    ]).registry.renderers();
    const entry = (data: unknown) => ({
      type: "custom",
      id: "e1",
      parentId: null,
      timestamp: "2025-01-01T00:00:00.000Z",
      customType: "todo",
      data,
    });
    const text = (data: unknown) => renderEntry(entry(data), { renderers, format: "text" });
    expect(text({ v: 2, op: "add", id: "a", title: "A" })).toContain("☐ todo added: A (a)");
    expect(text({ action: "check", text: "Docs" })).toContain("☑ todo done: docs");
    expect(text({ v: 2, op: "explode" })).not.toContain("todo added");
  });
});
