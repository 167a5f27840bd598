import { describe, expect, it } from "vitest";
import { assistant, fresh, U, user } from "./fixtures.js";

/** Key order of the stored entry, as a serialised line would show it. */
const keys = (o: object) => Object.keys(JSON.parse(JSON.stringify(o)));

/** The fields every entry type but the custom ones starts with (SPEC §3.1). */
const COMMON = ["type", "id", "parentId", "timestamp"] as const;

describe("append methods (SPEC §5, §13 item 5)", () => {
  it("appendMessage: shape, key order, 8-hex id, parent = leaf, leaf moves", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("hi"));
    const b = sm.appendMessage(assistant("yo"));
    expect(a).toMatch(/^[0-9a-f]{8}$/);
    const e = sm.getEntry(b);
    expect(keys(e as object)).toEqual([...COMMON, "message"]);
    expect(e).toMatchObject({ type: "message", parentId: a, message: assistant("yo") });
    expect(e?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(sm.getLeafId()).toBe(b);
    expect(sm.getEntry(a)?.parentId).toBeNull();
  });

  it("accepts any role, even compactionSummary, without validating content", () => {
    const sm = fresh();
    const id = sm.appendMessage({
      role: "compactionSummary",
      summary: "s",
      tokensBefore: 1,
      timestamp: 1,
    });
    expect(sm.getEntry(id)).toMatchObject({ message: { role: "compactionSummary" } });
  });

  it("thinking level, model change, custom entry, custom message: key orders", () => {
    const sm = fresh();
    const t = sm.appendThinkingLevelChange("high");
    const m = sm.appendModelChange("openai", "gpt-x");
    const c = sm.appendCustomEntry("ext", { n: 1 });
    const c2 = sm.appendCustomEntry("ext");
    const cm = sm.appendCustomMessageEntry("ext", "hello", false, { k: 2 });
    expect(keys(sm.getEntry(t) as object)).toEqual([...COMMON, "thinkingLevel"]);
    expect(keys(sm.getEntry(m) as object)).toEqual([...COMMON, "provider", "modelId"]);
    expect(keys(sm.getEntry(c) as object)).toEqual([
      "type",
      "customType",
      "data",
      "id",
      "parentId",
      "timestamp",
    ]);
    expect(keys(sm.getEntry(c2) as object)).toEqual([
      "type",
      "customType",
      "id",
      "parentId",
      "timestamp",
    ]);
    expect(keys(sm.getEntry(cm) as object)).toEqual([
      "type",
      "customType",
      "content",
      "display",
      "details",
      "id",
      "parentId",
      "timestamp",
    ]);
  });

  it("appendCompaction: null/undefined firstKeptEntryId means its own id; optional fields left out", () => {
    const sm = fresh();
    sm.appendMessage(user("q"));
    const k = sm.appendCompaction("S", null, 100);
    expect(sm.getEntry(k)).toMatchObject({ firstKeptEntryId: k, tokensBefore: 100, summary: "S" });
    expect(keys(sm.getEntry(k) as object)).toEqual([
      ...COMMON,
      "summary",
      "firstKeptEntryId",
      "tokensBefore",
    ]);
    const k2 = sm.appendCompaction("S2", "nope", 5, { readFiles: [] }, true, U);
    expect(keys(sm.getEntry(k2) as object)).toEqual([
      ...COMMON,
      "summary",
      "firstKeptEntryId",
      "tokensBefore",
      "details",
      "usage",
      "fromHook",
    ]);
    expect(sm.getEntry(k2)).toMatchObject({ firstKeptEntryId: "nope", fromHook: true, usage: U });
  });

  it("appendCompaction records the system checkpoint of the context (E26)", () => {
    const sm = fresh();
    sm.appendMessage({
      role: "system",
      content: [
        { type: "text", text: "A" },
        { type: "text", text: "" },
      ],
      sections: { x: "1", y: "2" },
      toolsAdded: [{ name: "t1", v: 1 }, { name: "t2" }],
      timestamp: 1,
    });
    sm.appendMessage(user("hi"));
    sm.appendMessage({
      role: "system",
      content: "B",
      sections: { x: null, z: "3" },
      toolsRemoved: [{ name: "t1" }],
      toolsAdded: [{ name: "t3" }, { name: "t1", v: 2 }],
      timestamp: 3,
    });
    const k = sm.appendCompaction("S", null, 1);
    const e = sm.getEntry(k) as { systemMessage?: unknown; timestamp: string };
    expect(e.systemMessage).toEqual({
      role: "system",
      content: "A\n\n\nB", // "A" + "\n" + "" from the first message, then a blank line
      sections: { y: "2", z: "3" },
      toolsAdded: [{ name: "t2" }, { name: "t3" }, { name: "t1", v: 2 }],
      timestamp: Date.parse(e.timestamp),
    });
  });

  it("appendSessionInfo sanitises CR/LF runs and trims, keeping inner spaces", () => {
    const sm = fresh();
    const id = sm.appendSessionInfo("  My\r\nSession \n name  ");
    expect(sm.getEntry(id)).toMatchObject({ type: "session_info", name: "My Session   name" });
    expect(sm.getSessionName()).toBe("My Session   name");
  });

  it("appendUsage returns the whole entry; note only when non-empty", () => {
    const sm = fresh();
    const e1 = sm.appendUsage("cache_warm", "anthropic", "claude-x", U, "");
    const e2 = sm.appendUsage("cache_warm", "anthropic", "claude-x", U, "warm");
    expect(keys(e1)).toEqual([...COMMON, "kind", "provider", "model", "usage"]);
    expect(e2.note).toBe("warm");
    expect(e2.parentId).toBe(e1.id);
    expect(sm.getLeafId()).toBe(e2.id);
  });

  it("appendLabelChange throws for an unknown target and changes nothing", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("q"));
    expect(() => sm.appendLabelChange("zzzzzzzz", "x")).toThrow("Entry zzzzzzzz not found");
    expect(sm.getLeafId()).toBe(a);
    expect(sm.getEntryCount()).toBe(1);
  });

  it("appendContextEdit validates in the reference's order with its messages", () => {
    const sm = fresh();
    const u = sm.appendMessage(user("q"));
    const a = sm.appendMessage(assistant("r"));
    const t = sm.appendThinkingLevelChange("low");
    expect(() => sm.appendContextEdit("nope", { content: 3 } as never)).toThrow(
      "Context edit replacement must be null or contain string/array content",
    );
    expect(() => sm.appendContextEdit("nope", null)).toThrow("Entry nope not found");
    expect(() => sm.appendContextEdit(t, null)).toThrow(
      `Entry ${t} does not contribute editable model content`,
    );
    sm.branch(u);
    expect(() => sm.appendContextEdit(a, null)).toThrow(`Entry ${a} is not on the active branch`);
    sm.branch(t);
    const e = sm.appendContextEdit(a, { content: "shorter" });
    expect(sm.getEntry(e)).toMatchObject({
      type: "context_edit",
      targetId: a,
      replacement: { content: [{ type: "text", text: "shorter" }] },
    });
    const e2 = sm.appendContextEdit(u, { content: "q'" });
    expect(sm.getEntry(e2)).toMatchObject({ replacement: { content: "q'" } });
    expect(
      sm.buildSessionContext().messages.map((m) => (m as { content: unknown }).content),
    ).toEqual(["q'", [{ type: "text", text: "shorter" }]]);
  });

  it("ids never repeat one seen in the session, including shadowed duplicates (W15)", () => {
    const sm = fresh();
    for (let i = 0; i < 200; i++) sm.appendMessage(user(`m${i}`));
    const ids = sm.getEntries().map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
