import { SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { assistant, fresh, user } from "./fixtures.js";

describe("createBranchedSession in memory (SPEC §9, §13 item 10)", () => {
  it("keeps the path, drops labels, re-links parents, recreates labels with their timestamps", () => {
    const sm = fresh();
    const oldId = sm.getSessionId();
    const u1 = sm.appendMessage(user("q1"));
    const a1 = sm.appendMessage(assistant("r1"));
    const l1 = sm.appendLabelChange(u1, "start");
    const u2 = sm.appendMessage(user("q2"));
    sm.appendLabelChange(u2, "second");
    const a2 = sm.appendMessage(assistant("r2"));
    sm.branch(a1);
    const side = sm.appendMessage(user("side"));
    sm.appendLabelChange(side, "off-path");
    const labelTimes = [l1].map((id) => sm.getEntry(id)?.timestamp);

    expect(sm.createBranchedSession(a2)).toBeUndefined();
    expect(sm.getSessionId()).not.toBe(oldId);
    expect(sm.getHeader()).toMatchObject({ type: "session", version: 3, cwd: "/tmp/proj" });
    expect(sm.getHeader()).not.toHaveProperty("parentSession");
    const entries = sm.getEntries();
    expect(entries.map((e) => e.type)).toEqual([
      "message",
      "message",
      "message",
      "message",
      "label",
      "label",
    ]);
    expect(entries.slice(0, 4).map((e) => e.id)).toEqual([u1, a1, u2, a2]);
    expect(entries.map((e) => e.parentId)).toEqual([null, u1, a1, u2, a2, entries[4]?.id]);
    expect(entries[4]).toMatchObject({ targetId: u1, label: "start", timestamp: labelTimes[0] });
    expect(entries[5]).toMatchObject({ targetId: u2, label: "second" });
    expect(sm.getLeafId()).toBe(entries[5]?.id);
    expect(sm.getLabel(side)).toBeUndefined();
    expect(sm.getEntry(side)).toBeUndefined();
  });

  it("remaps a compaction's firstKeptEntryId that named a dropped label", () => {
    const sm = fresh();
    const u1 = sm.appendMessage(user("q1"));
    const l = sm.appendLabelChange(u1, "x");
    const a1 = sm.appendMessage(assistant("r1"));
    const k = sm.appendCompaction("S", l, 10);
    const own = sm.appendCompaction("S2", null, 10);
    sm.createBranchedSession(own);
    expect(sm.getEntry(k)).toMatchObject({ firstKeptEntryId: a1, parentId: a1 });
    expect(sm.getEntry(own)).toMatchObject({ firstKeptEntryId: own });
  });

  it("throws for an unknown leaf and leaves the session as it was", () => {
    const sm = fresh();
    sm.appendMessage(user("q"));
    const id = sm.getSessionId();
    expect(() => sm.createBranchedSession("nope")).toThrow("Entry nope not found");
    expect(sm.getSessionId()).toBe(id);
  });

  it("a label leaf: the last kept entry before it (or the last recreated label) is the leaf", () => {
    const sm = fresh();
    const u1 = sm.appendMessage(user("q1"));
    const l = sm.appendLabelChange(u1, "x");
    sm.appendLabelChange(u1, undefined);
    sm.createBranchedSession(l);
    expect(sm.getEntries().map((e) => e.id)).toEqual([u1]);
    expect(sm.getLeafId()).toBe(u1);
  });
});

describe("inMemory and newSession (SPEC §4, §6.6)", () => {
  it("validates custom ids before changing anything", () => {
    const sm = fresh();
    const id = sm.getSessionId();
    for (const bad of ["", "-a", "a.", "a b", "a/b", "é"]) {
      expect(() => sm.newSession({ id: bad })).toThrow("Session id must be non-empty");
    }
    expect(() => sm.newSession({ id: "a".repeat(201) })).toThrow(
      "Session id is too long for a file name",
    );
    expect(sm.getSessionId()).toBe(id);
    for (const good of ["a", "0", "a..b", "a.b-c_d"]) {
      sm.newSession({ id: good, parentSession: "/p.jsonl" });
      expect(sm.getHeader()).toMatchObject({ id: good, parentSession: "/p.jsonl", version: 3 });
      expect(sm.getEntryCount()).toBe(0);
      expect(sm.getLeafId()).toBeNull();
    }
  });

  it("adopts a header among the entries, migrates, leaf = last entry; copies inputs (W20)", () => {
    const header = {
      type: "session",
      id: "old",
      timestamp: "2025-01-01T00:00:00.000Z",
      cwd: "/elsewhere",
    } as const;
    const input = [
      header,
      {
        type: "message",
        timestamp: "2025-01-01T00:00:01.000Z",
        message: {
          role: "hookMessage",
          customType: "h",
          content: "x",
          display: true,
          timestamp: 1,
        },
      },
    ];
    const copy = JSON.parse(JSON.stringify(input));
    const sm = SessionManager.inMemory("/tmp/proj", { id: "ignored" }, input as never);
    expect(input).toEqual(copy); // not mutated, not appended to
    expect(sm.getSessionId()).toBe("old");
    expect(sm.getCwd()).toBe("/tmp/proj");
    expect(sm.getHeader()?.version).toBe(3);
    const [entry] = sm.getEntries();
    expect(entry).toMatchObject({ parentId: null, message: { role: "custom" } });
    expect(sm.getLeafId()).toBe(entry?.id);
    sm.appendMessage(user("after"));
    expect(input).toHaveLength(2);
  });

  it("headerless entries get a fresh header from the options", () => {
    const sm = SessionManager.inMemory("/tmp/proj", { id: "mine" }, [
      {
        type: "custom",
        customType: "x",
        id: "e1",
        parentId: null,
        timestamp: "2025-01-01T00:00:00.000Z",
      },
    ]);
    expect(sm.getSessionId()).toBe("mine");
    expect(sm.getEntry("e1")).toBeDefined();
  });

  it("stored state is independent of objects passed in and handed out (W20)", () => {
    const sm = fresh();
    const message = user("original");
    const id = sm.appendMessage(message);
    message.content = "changed";
    expect(sm.getEntry(id)).toMatchObject({ message: { content: "original" } });
    const entries = sm.getEntries();
    entries.pop();
    expect(sm.getEntryCount()).toBe(1);
  });
});
