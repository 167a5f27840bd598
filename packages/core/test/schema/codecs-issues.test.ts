/**
 * Wrong types on known fields are reported as schema issues with the right path, expected type
 * and a short actual value; nothing throws.
 */

import { decodeEntry, decodeRecord, formatSchemaIssue, type SchemaIssue } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { decodeHeader, decodeWith, SessionEntryCodec, UsageCodec } from "../core-parts.js";
import { base, ENTRIES, issues, MESSAGES, system, text, usage } from "./fixtures.js";

describe("wrong types on known fields are issues with a path", () => {
  const cases: [string, unknown, string, string][] = [
    ["not an object", 5, "", "SessionEntry"],
    ["null", null, "", "SessionEntry"],
    ["an array", [ENTRIES.label], "", "SessionEntry"],
    ["type missing", { ...base }, "type", "string (SessionEntry type)"],
    ["type a number", { ...base, type: 1 }, "type", "string (SessionEntry type)"],
    ["id a number", { ...ENTRIES.label, id: 1 }, "id", "string"],
    ["parentId a number", { ...ENTRIES.label, parentId: 1 }, "parentId", "string | null"],
    ["timestamp a number", { ...ENTRIES.label, timestamp: 1 }, "timestamp", "string"],
    ["modelId missing", { ...ENTRIES.model_change, modelId: undefined }, "modelId", "string"],
    ["label a number", { ...ENTRIES.label, label: 3 }, "label", "string | null"],
    [
      "compaction tokensBefore",
      { ...ENTRIES.compaction, tokensBefore: "1" },
      "tokensBefore",
      "number",
    ],
    [
      "firstKeptEntryId a number",
      { ...ENTRIES.compaction, firstKeptEntryId: 1 },
      "firstKeptEntryId",
      "string",
    ],
    ["fromHook a string", { ...ENTRIES.branch_summary, fromHook: "yes" }, "fromHook", "boolean"],
    ["session name a number", { ...ENTRIES.session_info, name: 1 }, "name", "string"],
    ["display missing", { ...ENTRIES.custom_message, display: undefined }, "display", "boolean"],
    [
      "custom content a number",
      { ...ENTRIES.custom_message, content: 1 },
      "content",
      "string | (TextContent | ImageContent)[]",
    ],
    ["usage a number", { ...ENTRIES.usage, usage: 1 }, "usage", "Usage"],
    [
      "usage.cost.total",
      { ...ENTRIES.usage, usage: { ...usage, cost: { ...usage.cost, total: "1" } } },
      "usage.cost.total",
      "number",
    ],
    [
      "totalTokens a string",
      { ...ENTRIES.usage, usage: { ...usage, totalTokens: "35" } },
      "usage.totalTokens",
      "number",
    ],
    [
      "replacement a string",
      { ...ENTRIES.context_edit, replacement: "x" },
      "replacement",
      "ContextEditReplacement | null",
    ],
    [
      "replacement content",
      { ...ENTRIES.context_edit, replacement: { content: 5 } },
      "replacement.content",
      "string | ContentBlock[]",
    ],
    [
      "systemMessage section",
      { ...ENTRIES.compaction, systemMessage: { ...system, sections: { "a-b": 5 } } },
      'systemMessage.sections["a-b"]',
      "string | null",
    ],
    [
      "toolsRemoved name",
      { ...ENTRIES.compaction, systemMessage: { ...system, toolsRemoved: [{}] } },
      "systemMessage.toolsRemoved[0].name",
      "string",
    ],
  ];

  it.each(cases)("%s", (_name, input, path, expected) => {
    const list = issues(decodeEntry(JSON.parse(JSON.stringify(input) ?? "null")));
    expect(list.map((i) => [i.path, i.expected])).toEqual([[path, expected]]);
    expect(SessionEntryCodec.is(input)).toBe(false);
  });

  const messageCases: [string, Record<string, unknown>, string, string][] = [
    ["role a number", { ...MESSAGES.user, role: 1 }, "message.role", "string (AgentMessage role)"],
    [
      "user content a number",
      { ...MESSAGES.user, content: 1 },
      "message.content",
      "string | (TextContent | ImageContent)[]",
    ],
    ["timestamp a string", { ...MESSAGES.user, timestamp: "1" }, "message.timestamp", "number"],
    [
      "block text a number",
      { ...MESSAGES.user, content: [text, { type: "text", text: 5 }] },
      "message.content[1].text",
      "string",
    ],
    [
      "block not an object",
      { ...MESSAGES.user, content: [7] },
      "message.content[0]",
      "ContentBlock",
    ],
    [
      "block without type",
      { ...MESSAGES.user, content: [{ text: "x" }] },
      "message.content[0].type",
      "string (ContentBlock type)",
    ],
    [
      "image without data",
      { ...MESSAGES.user, content: [{ type: "image", mimeType: "x" }] },
      "message.content[0].data",
      "string",
    ],
    [
      "arguments an array",
      { ...MESSAGES.assistant, content: [{ type: "toolCall", id: "1", name: "n", arguments: [] }] },
      "message.content[0].arguments",
      "object",
    ],
    [
      "redacted a string",
      { ...MESSAGES.assistant, content: [{ type: "thinking", thinking: "t", redacted: "no" }] },
      "message.content[0].redacted",
      "boolean",
    ],
    [
      "stopReason a number",
      { ...MESSAGES.assistant, stopReason: 1 },
      "message.stopReason",
      "string",
    ],
    [
      "diagnostics an object",
      { ...MESSAGES.assistant, diagnostics: {} },
      "message.diagnostics",
      "unknown[]",
    ],
    [
      "assistant usage.input",
      { ...MESSAGES.assistant, usage: { ...usage, input: null } },
      "message.usage.input",
      "number",
    ],
    [
      "isError a string",
      { ...MESSAGES.toolResult, isError: "false" },
      "message.isError",
      "boolean",
    ],
    [
      "exitCode a string",
      { ...MESSAGES.bashExecution, exitCode: "0" },
      "message.exitCode",
      "number | null",
    ],
    [
      "fromId a number",
      { ...MESSAGES.branchSummary, fromId: 1 },
      "message.fromId",
      "string | null",
    ],
    [
      "system content a number",
      { ...system, content: 1 },
      "message.content",
      "string | TextContent[]",
    ],
    [
      "toolsAdded without name",
      { ...system, toolsAdded: [{ description: "d" }] },
      "message.toolsAdded[0].name",
      "string",
    ],
  ];

  it.each(messageCases)("message: %s", (_name, message, path, expected) => {
    const list = issues(decodeEntry({ type: "message", ...base, message }));
    expect(list.map((i) => [i.path, i.expected])).toEqual([[path, expected]]);
  });

  it("reports every wrong field, once each", () => {
    const entry = {
      type: "message",
      ...base,
      parentId: 5,
      message: { ...MESSAGES.assistant, content: [text, { type: "text", text: 5 }, 7], usage: 5 },
    };
    expect(issues(decodeEntry(entry)).map((i) => i.path)).toEqual([
      "parentId",
      "message.content[1].text",
      "message.content[2]",
      "message.usage",
    ]);
  });

  it("header issues", () => {
    expect(issues(decodeHeader({ type: "session" })).map((i) => i.path)).toEqual(["id"]);
    expect(issues(decodeHeader({ type: "session", id: "x", version: "3" }))[0]?.path).toBe(
      "version",
    );
    expect(issues(decodeHeader({ type: "session", id: "x", cwd: 1 }))[0]?.path).toBe("cwd");
    expect(issues(decodeHeader({ type: "message", id: "x" }))[0]?.path).toBe("type");
    expect(issues(decodeRecord({ type: "session", id: 1 }))[0]?.path).toBe("id");
  });
});

describe("issue values", () => {
  it("carry a short actual and a readable message", () => {
    const [issue] = issues(decodeEntry({ ...ENTRIES.model_change, modelId: 7 }));
    expect(issue).toEqual({
      path: "modelId",
      expected: "string",
      actual: 7,
      message: "expected string, got number 7",
    });
    expect(formatSchemaIssue(issue as SchemaIssue)).toBe("modelId: expected string, got number 7");
  });

  it("say 'missing' and omit actual for an absent field", () => {
    const [issue] = issues(decodeEntry({ ...ENTRIES.model_change, modelId: undefined }));
    expect(issue).toEqual({
      path: "modelId",
      expected: "string",
      message: "missing; expected string",
    });
  });

  it("cut long strings and describe objects and arrays", () => {
    const long = "x".repeat(500);
    const [a] = issues(decodeEntry({ ...ENTRIES.model_change, modelId: [long, long] }));
    expect(a?.actual).toBe("<array(2)>");
    const [b] = issues(decodeHeader({ type: "session", id: "x", version: long }));
    expect(typeof b?.actual === "string" && b.actual.length).toBeLessThan(70);
    const [c] = issues(decodeEntry({ ...ENTRIES.model_change, modelId: { deep: long } }));
    expect(c?.actual).toBe("<object>");
    expect(formatSchemaIssue(issues(decodeEntry(5))[0] as SchemaIssue)).toBe(
      "(root): expected SessionEntry, got number 5",
    );
  });

  it("a throwing getter becomes an issue, not an exception", () => {
    const evil = { ...ENTRIES.label };
    Object.defineProperty(evil, "targetId", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(issues(decodeEntry(evil))[0]?.message).toContain("boom");
  });

  it("UsageCodec alone reports paths from its own root", () => {
    const list = issues(decodeWith(UsageCodec, { ...usage, cost: 1 }));
    expect(list.map((i) => i.path)).toEqual(["cost"]);
  });
});
