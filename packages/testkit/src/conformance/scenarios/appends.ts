/**
 * Every append method's output (SPEC §3.2, §5): the entry written (JSON value and key
 * order), the return value, the leaf movement, ids, timestamps and the exact error messages.
 */
import type { EntryLike, SessionManagerLike } from "../../api-calls/manager-api.js";
import { ISO_TIMESTAMP } from "../../model/step.js";
import { equal, equalOrdered, ok } from "../assert.js";
import { assistantMessage, freshSession, USAGE, userMessage } from "../fixtures.js";
import type { Scenario } from "../types.js";

/** The stored entry of `id` without its random id and clock-given timestamp. */
function stored(sm: SessionManagerLike, id: string): Record<string, unknown> {
  const e = sm.getEntry(id) as EntryLike | undefined;
  ok(e, `getEntry(${id}) returns the new entry`);
  ok(ISO_TIMESTAMP.test(e.timestamp), `timestamp ${e.timestamp} is an ISO string with ms`);
  equal(sm.getLeafId(), id, "the leaf moves to the new entry");
  return { ...e, id: "<id>", timestamp: "<ts>" };
}

/** One append checked against the exact line it must write, parent = the previous leaf. */
function appendScenario(
  id: string,
  title: string,
  call: (sm: SessionManagerLike) => string,
  expected: (parentId: string) => Record<string, unknown>,
  first: (sm: SessionManagerLike) => string = (sm) => sm.appendMessage(userMessage("first")),
): Scenario {
  return {
    id: `append/${id}`,
    title,
    spec: "§3.2, §5.4",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const parent = first(sm);
      const newId = call(sm);
      ok(typeof newId === "string", `returns the new id (got ${String(newId)})`);
      equalOrdered(stored(sm, newId), expected(parent), `${id} entry (keys in order)`);
    },
  };
}

const e = (type: string, parentId: string, fields: Record<string, unknown>) => ({
  type,
  id: "<id>",
  parentId,
  timestamp: "<ts>",
  ...fields,
});

export const appendScenarios: Scenario[] = [
  appendScenario(
    "message",
    "appendMessage writes type,id,parentId,timestamp,message",
    (sm) => sm.appendMessage(assistantMessage("hi")),
    (p) => e("message", p, { message: assistantMessage("hi") }),
  ),
  appendScenario(
    "thinking-level",
    "appendThinkingLevelChange",
    (sm) => sm.appendThinkingLevelChange("high"),
    (p) => e("thinking_level_change", p, { thinkingLevel: "high" }),
  ),
  appendScenario(
    "model-change",
    "appendModelChange",
    (sm) => sm.appendModelChange("openai", "gpt-x"),
    (p) => e("model_change", p, { provider: "openai", modelId: "gpt-x" }),
  ),
  appendScenario(
    "compaction",
    "appendCompaction with details, fromHook and usage",
    (sm) =>
      sm.appendCompaction(
        "sum",
        "kept-id",
        1234,
        { readFiles: ["a"], modifiedFiles: [] },
        true,
        USAGE,
      ),
    (p) =>
      e("compaction", p, {
        summary: "sum",
        firstKeptEntryId: "kept-id",
        tokensBefore: 1234,
        details: { readFiles: ["a"], modifiedFiles: [] },
        usage: USAGE,
        fromHook: true,
      }),
  ),
  appendScenario(
    "custom",
    "appendCustomEntry: type,customType,data,id,parentId,timestamp",
    (sm) => sm.appendCustomEntry("ext", { n: 1 }),
    (p) => ({
      type: "custom",
      customType: "ext",
      data: { n: 1 },
      id: "<id>",
      parentId: p,
      timestamp: "<ts>",
    }),
  ),
  appendScenario(
    "custom-no-data",
    "appendCustomEntry without data leaves the key out",
    (sm) => sm.appendCustomEntry("ext"),
    (p) => ({ type: "custom", customType: "ext", id: "<id>", parentId: p, timestamp: "<ts>" }),
  ),
  appendScenario(
    "custom-message",
    "appendCustomMessageEntry: customType,content,display,details first",
    (sm) => sm.appendCustomMessageEntry("ext", [{ type: "text", text: "x" }], true, { k: 1 }),
    (p) => ({
      type: "custom_message",
      customType: "ext",
      content: [{ type: "text", text: "x" }],
      display: true,
      details: { k: 1 },
      id: "<id>",
      parentId: p,
      timestamp: "<ts>",
    }),
  ),
  appendScenario(
    "session-info",
    "appendSessionInfo replaces CR/LF runs by a space and trims",
    (sm) => sm.appendSessionInfo("  My\r\nSession \n name  "),
    (p) => e("session_info", p, { name: "My Session   name" }),
  ),
  appendScenario(
    "label",
    "appendLabelChange writes targetId and label",
    (sm) => sm.appendLabelChange(sm.getLeafId() as string, "start"),
    (p) => e("label", p, { targetId: p, label: "start" }),
  ),
  appendScenario(
    "context-edit",
    "appendContextEdit on an assistant stores string content as a text block",
    (sm) => sm.appendContextEdit(sm.getLeafId() as string, { content: "short" }),
    (p) =>
      e("context_edit", p, {
        targetId: p,
        replacement: { content: [{ type: "text", text: "short" }] },
      }),
    (sm) => sm.appendMessage(assistantMessage("long answer")),
  ),
  {
    id: "append/compaction-keep-none",
    title: "appendCompaction with a null or undefined firstKeptEntryId keeps none (its own id)",
    spec: "§5.4",
    run(ctx) {
      const sm = freshSession(ctx.module);
      for (const keep of [null, undefined]) {
        const id = sm.appendCompaction("s", keep as null, 0);
        equal((sm.getEntry(id) as EntryLike).firstKeptEntryId, id, `firstKeptEntryId for ${keep}`);
      }
    },
  },
  {
    id: "append/compaction-system-checkpoint",
    title: "appendCompaction records the prompt checkpoint of the context's system messages",
    spec: "§5.4 [R1.6]",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const tool = (name: string) => ({ name, description: name, parameters: { type: "object" } });
      sm.appendMessage({
        role: "system",
        content: "base",
        sections: { a: "1", b: "2" },
        toolsAdded: [tool("read"), tool("bash")],
        timestamp: 5,
      });
      sm.appendMessage(userMessage("q"));
      sm.appendMessage({
        role: "system",
        content: [
          { type: "text", text: "x" },
          { type: "text", text: "y" },
        ],
        sections: { a: null },
        toolsRemoved: [{ name: "read" }],
        timestamp: 6,
      });
      const id = sm.appendCompaction("s", null, 0);
      const entry = sm.getEntry(id) as EntryLike;
      equalOrdered(
        entry.systemMessage,
        {
          role: "system",
          content: "base\n\nx\ny",
          sections: { b: "2" },
          toolsAdded: [tool("bash")],
          timestamp: Date.parse(entry.timestamp),
        },
        "systemMessage",
      );
      const second = sm.appendCompaction("s2", null, 0);
      ok(
        (sm.getEntry(second) as EntryLike).systemMessage,
        "a later compaction carries the checkpoint on",
      );
    },
  },
  {
    id: "append/usage",
    title: "appendUsage returns the entry; an empty note is left out",
    spec: "§5.4 [R1.6]",
    run(ctx) {
      const sm = freshSession(ctx.module);
      for (const note of ["warm", "", undefined]) {
        const parentId = sm.getLeafId();
        const got = sm.appendUsage("cache_warm", "anthropic", "claude-x", USAGE, note) as EntryLike;
        equalOrdered(
          { ...got, id: "<id>", timestamp: "<ts>" },
          {
            type: "usage",
            id: "<id>",
            parentId,
            timestamp: "<ts>",
            kind: "cache_warm",
            provider: "anthropic",
            model: "claude-x",
            usage: USAGE,
            ...(note ? { note } : {}),
          },
          `appendUsage with note ${JSON.stringify(note)}`,
        );
        equal(sm.getEntry(got.id), got, "the returned entry is stored");
      }
    },
  },
  {
    id: "append/branch-with-summary",
    title: 'branchWithSummary: parent is the branch point, fromId the old leaf or "root"',
    spec: "§3.2, §7.4",
    run(ctx) {
      const sm = freshSession(ctx.module);
      const a = sm.appendMessage(userMessage("a"));
      const b = sm.appendMessage(userMessage("b"));
      const s1 = sm.branchWithSummary(a, "tried b", { f: 1 }, false, USAGE);
      equalOrdered(
        stored(sm, s1),
        e("branch_summary", a, {
          fromId: b,
          summary: "tried b",
          details: { f: 1 },
          usage: USAGE,
          fromHook: false,
        }),
        "summary entry",
      );
      sm.resetLeaf();
      const s2 = sm.branchWithSummary(null, "");
      equalOrdered(
        stored(sm, s2),
        {
          type: "branch_summary",
          id: "<id>",
          parentId: null,
          timestamp: "<ts>",
          fromId: "root",
          summary: "",
        },
        "from a null leaf, new root",
      );
    },
  },
];
