import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { EntryRejectedError, SessionManager } from "@pi-sessions/core";
import { BUILTIN_PROJECTIONS } from "@pi-sessions/core/internal";
import {
  createRegistry,
  customEntryType,
  definePlugin,
  installPlugins,
  pluginProjections,
} from "@pi-sessions/plugins";
import { removeTempDir, tempDir } from "@pi-sessions/test-utils";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import {
  calls,
  freshManager,
  note,
  type TallyState,
  tally,
  tallyCount,
  tallyPlugin,
  user,
} from "./plugin-fixtures.js";

describe("installPlugins: the append guard", () => {
  it("refuses invalid data before anything changes; the error names the type and the path", () => {
    const sm = freshManager();
    installPlugins(sm, [tallyPlugin]);
    sm.appendMessage(user("hi"));
    const before = sm.getState();
    let error: unknown;
    try {
      sm.appendCustomEntry("tally", { v: 2, amount: "many", tag: "x" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EntryRejectedError);
    expect((error as Error).message).toBe(
      'Entry of type "custom" rejected by plugin "tally": custom entry "tally" (v2) cannot be read: invalid-data: data.amount: expected number, got "many"',
    );
    expect((error as EntryRejectedError).issues.map((i) => i.path)).toEqual(["data.amount"]);
    expect(sm.getState()).toBe(before);
  });

  it("accepts old versions that upcast, refuses ones that do not, and newer versions", () => {
    const sm = freshManager();
    installPlugins(sm, [tallyPlugin]);
    expect(sm.getEntry(sm.appendCustomEntry("tally", { n: 2 }))).toBeDefined();
    expect(() => sm.appendCustomEntry("tally", { n: "explode" })).toThrow("upcast-failed");
    expect(() => sm.appendCustomEntry("tally", { v: 9, amount: 1, tag: "x" })).toThrow(
      "newer-version",
    );
    expect(() => sm.appendCustomMessageEntry("note", "hello", true, { author: 5 })).toThrow(
      "details.author: expected string, got number 5",
    );
    // Types no plugin registered pass untouched.
    expect(sm.getEntry(sm.appendCustomEntry("someone-else", { anything: true }))).toBeDefined();
  });

  it("typed appends stamp the current version", () => {
    const sm = freshManager();
    const host = installPlugins(sm, [tallyPlugin]);
    const id = host.appendCustom(tally, { amount: 3, tag: "a" });
    expect(sm.getEntry(id)).toMatchObject({ data: { v: 2, amount: 3, tag: "a" } });
    const m = host.appendCustomMessage(note, { content: "hi", details: { author: "ana" } }, true);
    expect(sm.getEntry(m)).toMatchObject({
      content: "hi",
      display: true,
      details: { author: "ana" },
    });
    const stranger = customEntryType({ customType: "tally", data: t.number });
    expect(() => host.appendCustom(stranger, 1)).toThrow(
      'Custom entry type "tally" is not installed',
    );
  });
});

describe("installPlugins: state", () => {
  it("replays projections and branch state over what is there, then follows appends", () => {
    const sm = freshManager();
    sm.appendCustomEntry("tally", { n: 1 });
    sm.appendCustomEntry("tally", { v: 2, amount: 10, tag: "b" });
    const host = installPlugins(sm, [tallyPlugin]);
    expect(host.projectionState(tallyCount)).toBe(2);
    expect(host.branchState(tallyPlugin)).toEqual({
      total: 11,
      tallies: 2,
      notes: 0,
      lastTag: "b",
    });
    host.appendCustomMessage(note, { content: "n", details: { author: "x" } }, false);
    expect(host.branchState<TallyState>("tally").notes).toBe(1);
  });

  it("appends at the leaf cost one reducer call each; a leaf move costs one rebuild", () => {
    const sm = freshManager();
    const host = installPlugins(sm, [tallyPlugin]);
    const first = host.appendCustom(tally, { amount: 1, tag: "a" });
    host.branchState(tallyPlugin);
    calls.apply = 0;
    for (let i = 0; i < 200; i++) host.appendCustom(tally, { amount: 1, tag: "a" });
    expect(host.branchState<TallyState>(tallyPlugin).total).toBe(201);
    expect(calls.apply).toBe(200);
    calls.apply = 0;
    sm.branch(first);
    expect(host.branchState<TallyState>(tallyPlugin).total).toBe(1);
    expect(calls.apply).toBe(1);
    host.appendCustom(tally, { amount: 5, tag: "z" });
    expect(host.branchState<TallyState>(tallyPlugin)).toMatchObject({ total: 6, lastTag: "z" });
    expect(calls.apply).toBe(2);
  });

  it("follows resetLeaf, branchWithSummary and session switches", () => {
    const sm = freshManager();
    const host = installPlugins(sm, [tallyPlugin]);
    const a = host.appendCustom(tally, { amount: 1, tag: "a" });
    host.appendCustom(tally, { amount: 2, tag: "b" });
    sm.resetLeaf();
    expect(host.branchState<TallyState>(tallyPlugin).total).toBe(0);
    host.appendCustom(tally, { amount: 7, tag: "root2" });
    expect(host.branchState<TallyState>(tallyPlugin).total).toBe(7);
    sm.branchWithSummary(a, "back");
    expect(host.branchState<TallyState>(tallyPlugin).total).toBe(1);
    sm.newSession();
    expect(host.branchState<TallyState>(tallyPlugin).total).toBe(0);
    expect(host.projectionState(tallyCount)).toBe(0);
  });

  it("another session with the same leaf id does not reuse the cached state", () => {
    const header =
      '{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T10:00:00.000Z","cwd":"/tmp"}';
    const line = (amount: number) =>
      `{"type":"custom","id":"e1","parentId":null,"timestamp":"2025-01-01T10:00:01.000Z","customType":"tally","data":{"v":2,"amount":${amount},"tag":"t"}}`;
    const dir = tempDir("plugins-");
    try {
      const file = join(dir, "other.jsonl");
      writeFileSync(file, `${header}\n${line(100)}\n`);
      const sm = SessionManager.fromJsonl(`${header}\n${line(1)}\n`);
      const host = installPlugins(sm, [tallyPlugin]);
      expect(host.branchState<TallyState>(tallyPlugin).total).toBe(1);
      sm.setSessionFile(file);
      expect(sm.getLeafId()).toBe("e1");
      expect(host.branchState<TallyState>(tallyPlugin).total).toBe(100);
    } finally {
      removeTempDir(dir);
    }
  });

  it("reports invalid loaded data with entry id and file line, keeping the entry", () => {
    const lines = [
      '{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T10:00:00.000Z","cwd":"/tmp"}',
      '{"type":"custom","id":"e1","parentId":null,"timestamp":"2025-01-01T10:00:01.000Z","customType":"tally","data":{"n":4}}',
      "garbage line",
      '{"type":"custom","id":"e2","parentId":"e1","timestamp":"2025-01-01T10:00:02.000Z","customType":"tally","data":{"v":2,"amount":"x","tag":"t"}}',
      '{"type":"custom_message","id":"e3","parentId":"e2","timestamp":"2025-01-01T10:00:03.000Z","customType":"note","content":"c","display":true,"details":{"v":5,"author":"a"}}',
    ];
    const sm = SessionManager.fromJsonl(`${lines.join("\n")}\n`);
    const host = installPlugins(sm, [tallyPlugin]);
    expect(sm.getEntries().map((e) => e.id)).toEqual(["e1", "e2", "e3"]);
    const diags = host.diagnostics();
    expect(diags.map((d) => [d.entryId, d.line, d.kind, d.customType, d.plugin])).toEqual([
      ["e2", 4, "invalid-data", "tally", "tally"],
      ["e3", 5, "newer-version", "note", "tally"],
    ]);
    expect(diags[0]?.message).toContain("data.amount: expected number");
    // The reducer skips what it cannot read.
    expect(host.branchState<TallyState>(tallyPlugin)).toMatchObject({ total: 4, notes: 0 });
  });

  it("uses projections the manager already folds, and uninstalls exactly what it added", () => {
    const registry = createRegistry([tallyPlugin]);
    const sm = SessionManager.inMemory("/tmp/p", { projections: [tallyCount] });
    const host = installPlugins(sm, registry);
    host.appendCustom(tally, { amount: 1, tag: "a" });
    expect(host.projectionState(tallyCount)).toBe(1);
    const names = () =>
      sm
        .getState()
        .slots.slice(BUILTIN_PROJECTIONS.length)
        .map((s) => s.projection.name);
    expect(names()).toEqual(["tally-count", "plugins:diagnostics"]);
    host.uninstall();
    host.uninstall();
    expect(host.installed).toBe(false);
    expect(names()).toEqual(["tally-count"]);
    expect(sm.getEntry(sm.appendCustomEntry("tally", "anything goes now"))).toBeDefined();
    expect(() => host.branchState(tallyPlugin)).toThrow("uninstalled");
  });

  it("a failed install changes nothing", () => {
    const sm = SessionManager.inMemory("/tmp/p", {
      projections: [{ ...tallyCount }],
    });
    expect(() => installPlugins(sm, [tallyPlugin])).toThrow(
      'Projection "tally-count" is already registered',
    );
    expect(
      sm
        .getState()
        .slots.slice(BUILTIN_PROJECTIONS.length)
        .map((s) => s.projection.name),
    ).toEqual(["tally-count"]);
    expect(sm.events.listenerCount("entryAppended")).toBe(0);
    expect(sm.getEntry(sm.appendCustomEntry("tally", "unchecked"))).toBeDefined();
  });

  it("plugin projections work in a bare fold too", () => {
    const projections = pluginProjections(createRegistry([tallyPlugin]));
    const sm = SessionManager.inMemory("/tmp/p", { projections });
    sm.appendCustomEntry("tally", { n: 1 });
    expect(sm.getProjectionState(tallyCount.name)).toBe(1);
  });

  it("branchState refuses plugins that are not installed or have no reducer", () => {
    const host = installPlugins(freshManager(), [tallyPlugin, definePlugin({ name: "plain" })]);
    expect(() => host.branchState("ghost")).toThrow('Plugin "ghost" is not installed here');
    expect(() => host.branchState("plain")).toThrow('Plugin "plain" has no branchState reducer');
  });
});
