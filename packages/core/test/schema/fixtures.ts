/**
 * Shared samples for the schema tests: one valid value of every entry type and message role
 * (optional fields filled in), and helpers to read a decode result.
 */

import { formatSchemaIssue, type SchemaIssue } from "@pi-sessions/core";
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import { ENTRY_CODECS } from "../core-parts.js";

export const base = { id: "a1b2c3d4", parentId: "00000000", timestamp: "2026-01-01T00:00:00.000Z" };
export const usage = {
  input: 10,
  output: 20,
  cacheRead: 0,
  cacheWrite: 5,
  totalTokens: 35,
  cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0.05, total: 0.35 },
};
export const text = { type: "text", text: "hello" };
export const image = { type: "image", data: "aGk=", mimeType: "image/png" };
export const system = {
  role: "system",
  content: [text],
  sections: { intro: "You are pi.", removed: null },
  toolsAdded: [{ name: "bash", description: "run", parameters: {} }],
  toolsRemoved: [{ name: "edit" }],
  timestamp: 1,
};

/** One valid message of every role, with its optional fields filled in. */
export const MESSAGES: Record<string, Record<string, unknown>> = {
  user: { role: "user", content: [text, image], timestamp: 1 },
  assistant: {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hm", thinkingSignature: "s", redacted: false },
      text,
      {
        type: "toolCall",
        id: "c1",
        name: "bash",
        arguments: { command: "ls", n: [1, { x: null }] },
      },
    ],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "m",
    responseModel: "m-2",
    responseId: "r",
    providerThinkingLevel: "high",
    diagnostics: [{ type: "retry", timestamp: 1 }],
    usage: {
      ...usage,
      cacheWrite1h: 2,
      reasoning: 3,
      cost: { ...usage.cost, totalFromProvider: true },
    },
    stopReason: "deferred",
    deferred: { provider: "p", modelId: "m", api: "a", id: "d" },
    errorMessage: "e",
    rawStopReason: "end_turn",
    endTurn: true,
    thinkingLevel: "high",
    durationMs: 12,
    timestamp: 2,
  },
  toolResult: {
    role: "toolResult",
    toolCallId: "c1",
    toolName: "bash",
    content: [text],
    details: { anything: [1, 2] },
    usage,
    addedToolNames: ["x"],
    nestedCalls: { calls: [], complete: true },
    durationMs: 3,
    isError: false,
    timestamp: 3,
  },
  bashExecution: {
    role: "bashExecution",
    command: "ls",
    output: "a\n",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    fullOutputPath: "/tmp/out",
    excludeFromContext: true,
    timestamp: 4,
  },
  custom: {
    role: "custom",
    customType: "x",
    content: "hi",
    display: true,
    details: 1,
    timestamp: 5,
  },
  branchSummary: { role: "branchSummary", summary: "s", fromId: null, timestamp: 6 },
  compactionSummary: { role: "compactionSummary", summary: "s", tokensBefore: 100, timestamp: 7 },
  system,
};

/** One valid entry of every type. */
export const ENTRIES: Record<string, Record<string, unknown>> = {
  message: { type: "message", ...base, message: MESSAGES.user },
  thinking_level_change: { type: "thinking_level_change", ...base, thinkingLevel: "off" },
  model_change: { type: "model_change", ...base, provider: "p", modelId: "m" },
  compaction: {
    type: "compaction",
    ...base,
    summary: "s",
    firstKeptEntryId: "00000000",
    tokensBefore: 1000,
    details: { readFiles: ["a"], modifiedFiles: [] },
    usage,
    fromHook: false,
    systemMessage: system,
  },
  branch_summary: {
    type: "branch_summary",
    ...base,
    fromId: "root",
    summary: "",
    details: null,
    usage,
    fromHook: true,
  },
  custom: { type: "custom", customType: "todo", data: { items: [] }, ...base },
  custom_message: {
    type: "custom_message",
    customType: "note",
    content: [text, image],
    display: false,
    details: "d",
    ...base,
  },
  label: { type: "label", ...base, targetId: "00000000", label: "bookmark" },
  session_info: { type: "session_info", ...base, name: "" },
  usage: {
    type: "usage",
    ...base,
    kind: "cache-warm",
    provider: "p",
    model: "m",
    usage,
    note: "n",
  },
  context_edit: {
    type: "context_edit",
    ...base,
    targetId: "00000000",
    replacement: { content: [text, { type: "toolCall", id: "c", name: "n", arguments: {} }] },
  },
};

/** The decoded value, or the issues as readable lines. */
export function decoded<A>(result: E.Either<SchemaIssue[], A>): A | string[] {
  return pipe(
    result,
    E.match(
      (left): A | string[] => left.map(formatSchemaIssue),
      (right) => right,
    ),
  );
}

/** The issues of a failed decode (fails the test if it succeeded). */
export function issues(result: E.Either<SchemaIssue[], unknown>): SchemaIssue[] {
  return pipe(
    result,
    E.swap,
    E.getOrElseW((): never => {
      throw new Error("expected issues, got a value");
    }),
  );
}

/** The issues of a decode as readable lines; none when it succeeded. */
export function issueLines(result: E.Either<SchemaIssue[], unknown>): string[] {
  return pipe(
    result,
    E.match(
      (left) => left.map(formatSchemaIssue),
      () => [],
    ),
  );
}

/** The decoded value, or undefined when the decode failed. */
export function rightOf<A>(result: E.Either<unknown, A>): A | undefined {
  return pipe(
    result,
    E.getOrElseW(() => undefined),
  );
}

/** True if a decoded entry is of a built-in type (so its known fields were checked). */
export function isBuiltinEntry(entry: { readonly type: string }): boolean {
  return Object.hasOwn(ENTRY_CODECS, entry.type);
}
