import { buildSessionContext, type SessionEntry } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { load } from "./fixtures.js";

const U =
  '{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}';
const msg = (id: string, parentId: string | null, sec: number, role: string, text: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: `2025-01-01T10:00:0${sec}.000Z`,
    message:
      role === "user"
        ? { role, content: text, timestamp: 1735725600000 + sec * 1000 }
        : {
            role,
            content: [{ type: "text", text }],
            api: "a",
            provider: "anthropic",
            model: "claude-x",
            usage: JSON.parse(U),
            stopReason: "stop",
            timestamp: 1735725600000 + sec * 1000,
          },
  });

/** SPEC §8.7 example A. */
const EXAMPLE_A = [
  msg("u1", null, 0, "user", "Fix the bug"),
  '{"type":"thinking_level_change","id":"t1","parentId":"u1","timestamp":"2025-01-01T10:00:01.000Z","thinkingLevel":"high"}',
  msg("a1", "t1", 2, "assistant", "Done"),
  '{"type":"model_change","id":"m1","parentId":"a1","timestamp":"2025-01-01T10:00:03.000Z","provider":"openai","modelId":"gpt-x"}',
  '{"type":"custom","id":"c1","parentId":"m1","timestamp":"2025-01-01T10:00:04.000Z","customType":"ext","data":{"n":1}}',
  '{"type":"custom_message","id":"cm1","parentId":"c1","timestamp":"2025-01-01T10:00:05.000Z","customType":"ext","content":"Injected","display":false,"details":{"k":2}}',
  '{"type":"label","id":"l1","parentId":"cm1","timestamp":"2025-01-01T10:00:06.000Z","targetId":"u1","label":"start"}',
].join("\n");

/** SPEC §8.7 example B. */
const EXAMPLE_B = [
  msg("u1", null, 0, "user", "q1"),
  msg("a1", "u1", 1, "assistant", "r1"),
  msg("u2", "a1", 2, "user", "q2"),
  msg("a2", "u2", 3, "assistant", "r2"),
  '{"type":"compaction","id":"k1","parentId":"a2","timestamp":"2025-01-01T10:00:04.000Z","summary":"S1","firstKeptEntryId":"u2","tokensBefore":500}',
  msg("u3", "k1", 5, "user", "q3"),
  msg("x1", "u2", 6, "user", "side"),
  '{"type":"branch_summary","id":"b1","parentId":"a1","timestamp":"2025-01-01T10:00:07.000Z","fromId":"x1","summary":"Tried a side path"}',
  msg("u4", "b1", 8, "user", "q4"),
].join("\n");

const ids = (entries: SessionEntry[]) => entries.map((e) => e.id);
const summaryOf = (m: unknown) => m as { role: string; summary?: string; content?: unknown };

describe("context (SPEC §8, §13 item 9)", () => {
  it("example A: settings from the whole path, custom_message conversion, labels", () => {
    const sm = load(EXAMPLE_A);
    expect(sm.getLeafId()).toBe("l1");
    expect(ids(sm.buildContextEntries())).toEqual(["u1", "t1", "a1", "m1", "c1", "cm1", "l1"]);
    const ctx = sm.buildSessionContext();
    expect(ctx.thinkingLevel).toBe("high");
    expect(ctx.model).toEqual({ provider: "openai", modelId: "gpt-x" });
    expect(ctx.messages).toHaveLength(3);
    expect(ctx.messages[2]).toEqual({
      role: "custom",
      customType: "ext",
      content: "Injected",
      display: false,
      details: { k: 2 },
      timestamp: 1735725605000,
    });
    expect(sm.getLabel("u1")).toBe("start");
    sm.branch("a1");
    expect(sm.buildSessionContext().model).toEqual({ provider: "anthropic", modelId: "claude-x" });
    expect(sm.buildSessionContext().messages).toHaveLength(2);
    const entries = sm.getEntries();
    expect(buildSessionContext(entries, null)).toEqual({
      messages: [],
      thinkingLevel: "off",
      model: null,
    });
    expect(buildSessionContext(entries, "unknown").messages).toHaveLength(3);
    expect(buildSessionContext(entries, undefined).messages).toHaveLength(3);
  });

  it("example B: compaction, branches, branch summary", () => {
    const sm = load(EXAMPLE_B);
    expect(sm.getLeafId()).toBe("u4");
    expect(ids(sm.buildContextEntries())).toEqual(["u1", "a1", "b1", "u4"]);
    expect(
      sm
        .buildSessionContext()
        .messages.map(summaryOf)
        .map((m) => m.role),
    ).toEqual(["user", "assistant", "branchSummary", "user"]);
    expect(sm.buildSessionContext().messages[2]).toEqual({
      role: "branchSummary",
      summary: "Tried a side path",
      fromId: "x1",
      timestamp: Date.parse("2025-01-01T10:00:07.000Z"),
    });
    sm.branch("u3");
    expect(ids(sm.buildContextEntries())).toEqual(["k1", "u2", "a2", "u3"]);
    expect(sm.buildSessionContext().messages[0]).toEqual({
      role: "compactionSummary",
      summary: "S1",
      tokensBefore: 500,
      timestamp: Date.parse("2025-01-01T10:00:04.000Z"),
    });
    sm.branch("x1");
    expect(ids(sm.buildContextEntries())).toEqual(["u1", "a1", "u2", "x1"]);
  });

  it("example C: nested compactions, kept id off-path/own/missing, settings before a compaction, empty branch summary", () => {
    const base = [
      msg("u1", null, 0, "user", "q1"),
      '{"type":"thinking_level_change","id":"t1","parentId":"u1","timestamp":"2025-01-01T10:00:01.000Z","thinkingLevel":"low"}',
      msg("a1", "t1", 2, "assistant", "r1"),
      '{"type":"compaction","id":"c1","parentId":"a1","timestamp":"2025-01-01T10:00:03.000Z","summary":"S1","firstKeptEntryId":"a1","tokensBefore":1}',
      msg("u2", "c1", 4, "user", "q2"),
      '{"type":"compaction","id":"c2","parentId":"u2","timestamp":"2025-01-01T10:00:05.000Z","summary":"S2","firstKeptEntryId":"c1","tokensBefore":2}',
      msg("u3", "c2", 6, "user", "q3"),
    ];
    const sm = load(base.join("\n"));
    expect(ids(sm.buildContextEntries())).toEqual(["c2", "c1", "u2", "u3"]);
    const roles = sm.buildSessionContext().messages.map((m) => m.role);
    expect(roles).toEqual(["compactionSummary", "user", "user"]); // c1 adds no summary
    for (const kept of ['"nowhere"', '"c9"']) {
      const own = load(
        base
          .slice(0, 5)
          .join("\n")
          .replace('"firstKeptEntryId":"a1"', `"firstKeptEntryId":${kept}`)
          .replace('"id":"c1"', '"id":"c9"')
          .replace('"parentId":"c1"', '"parentId":"c9"'),
      );
      expect(ids(own.buildContextEntries())).toEqual(["c9", "u2"]);
      expect(own.buildSessionContext().thinkingLevel).toBe("low");
    }
    const missing = load(base.slice(0, 4).join("\n").replace(',"firstKeptEntryId":"a1"', ""));
    expect(ids(missing.buildContextEntries())).toEqual(["c1"]);
    expect(missing.buildSessionContext()).toMatchObject({
      thinkingLevel: "low",
      model: { provider: "anthropic", modelId: "claude-x" },
    });
    const emptySummary = load(
      [
        msg("u1", null, 0, "user", "q"),
        '{"type":"branch_summary","id":"b","parentId":"u1","timestamp":"2025-01-01T10:00:01.000Z","fromId":"root","summary":""}',
      ].join("\n"),
    );
    expect(emptySummary.buildSessionContext().messages).toHaveLength(1);
  });

  it("a message with null content gets [] in context; the entry is unchanged", () => {
    const sm = load(
      '{"type":"message","id":"u","parentId":null,"timestamp":"2025-01-01T10:00:00.000Z","message":{"role":"user","content":null,"timestamp":1}}',
    );
    expect(sm.buildSessionContext().messages[0]).toEqual({
      role: "user",
      content: [],
      timestamp: 1,
    });
    expect(sm.getEntry("u")).toMatchObject({ message: { content: null } });
  });

  it("incremental context equals the free function after appends at the leaf and elsewhere", () => {
    const sm = load(EXAMPLE_B);
    const check = () =>
      expect(sm.buildSessionContext()).toEqual(
        buildSessionContext(sm.getEntries(), sm.getLeafId()),
      );
    check();
    sm.appendMessage({ role: "user", content: "more", timestamp: 9 });
    check();
    sm.branch("a2");
    sm.appendCompaction("S", "a2", 9);
    check();
    sm.appendMessage({ role: "user", content: "after", timestamp: 10 });
    check();
    sm.appendContextEdit(sm.getLeafId() as string, { content: "edited" });
    check();
  });
});
