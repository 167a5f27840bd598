/**
 * Records for the deterministic scenarios: headers, entries with fixed ids and timestamps,
 * and the worked examples A and B of SPEC §8.7, written out as plain JSON.
 */
import type {
  EntryLike,
  JsonObject,
  SessionManagerLike,
  SessionModuleLike,
} from "../api-calls/manager-api.js";
import type { ScenarioContext } from "./types.js";

/** `2025-01-01T10:00:<s>.000Z`. */
export const at = (s: number): string => `2025-01-01T10:00:${String(s).padStart(2, "0")}.000Z`;

/** Milliseconds of {@link at}. */
export const msAt = (s: number): number => Date.parse(at(s));

/** A session header (SPEC §2.2); `version: undefined` leaves the key out (a v1 file). */
export function header(fields: { version?: number | undefined; id?: string; cwd?: string } = {}) {
  const { id = "file-session", cwd = "/work/project" } = fields;
  const version = "version" in fields ? fields.version : 3;
  return {
    type: "session",
    ...(version === undefined ? {} : { version }),
    id,
    timestamp: at(0),
    cwd,
  };
}

/** A new in-memory session of the module under test, in the scenarios' working directory. */
export const freshSession = (module: SessionModuleLike): SessionManagerLike =>
  module.SessionManager.inMemory("/work/project");

/** An in-memory session loaded from a v3 header followed by `entries`. */
export const loadedSession = (module: SessionModuleLike, entries: unknown[]): SessionManagerLike =>
  module.SessionManager.inMemory("/work/project", undefined, [header(), ...entries]);

/** A persisted session that has been written (one user message), and its file. */
export function flushed(ctx: ScenarioContext): {
  sm: SessionManagerLike;
  file: string;
  first: string;
} {
  const sm = ctx.module.SessionManager.create("/work/project", ctx.tempDir());
  const first = sm.appendMessage(userMessage("first"));
  return { sm, file: sm.getSessionFile() as string, first };
}

/** A user message (SPEC §3.3). */
export const userMessage = (text: unknown, timestamp = 1): JsonObject => ({
  role: "user",
  content: text,
  timestamp,
});

/** A usage object with zero costs. */
export const USAGE = {
  input: 1,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 3,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** An assistant message (SPEC §3.3). */
export const assistantMessage = (text: string, provider = "anthropic", model = "claude-x") => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider,
  model,
  usage: USAGE,
  stopReason: "stop",
  timestamp: 2,
});

/** An entry with the common fields first (SPEC §3.1), then `fields`. */
export function entry(
  type: string,
  id: string,
  parentId: string | null,
  s: number,
  fields: JsonObject = {},
): EntryLike {
  return { type, id, parentId, timestamp: at(s), ...fields };
}

/** A `label` entry setting `label` on `targetId`; without `label` it clears (SPEC §7.10). */
export const labelEntry = (
  id: string,
  parentId: string | null,
  s: number,
  targetId: string,
  label?: string,
) => entry("label", id, parentId, s, label === undefined ? { targetId } : { targetId, label });

/** A `compaction` entry: `summary` stands for the path before `firstKeptEntryId` (SPEC §8.3). */
export const compactionEntry = (
  id: string,
  parentId: string | null,
  s: number,
  summary: string,
  firstKeptEntryId: string,
  tokensBefore: number,
) => entry("compaction", id, parentId, s, { summary, firstKeptEntryId, tokensBefore });

/** A `message` entry holding a user message with text `text` (default: the id). */
export const userEntry = (id: string, parentId: string | null, s = 1, text: string = id) =>
  entry("message", id, parentId, s, { message: userMessage(text, msAt(s)) });

/** A `message` entry holding an assistant message. */
export const assistantEntry = (id: string, parentId: string | null, s: number, text: string) =>
  entry("message", id, parentId, s, { message: { ...assistantMessage(text), timestamp: msAt(s) } });

/** Records as JSONL text, one line each, ending in `\n`. */
export const jsonl = (records: readonly unknown[]): string =>
  `${records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n")}\n`;

/** SPEC §8.7 example A: settings, a custom entry, a custom message and a label. */
export function exampleA(): EntryLike[] {
  return [
    userEntry("u1", null, 0, "Fix the bug"),
    entry("thinking_level_change", "t1", "u1", 1, { thinkingLevel: "high" }),
    assistantEntry("a1", "t1", 2, "Done"),
    entry("model_change", "m1", "a1", 3, { provider: "openai", modelId: "gpt-x" }),
    entry("custom", "c1", "m1", 4, { customType: "ext", data: { n: 1 } }),
    entry("custom_message", "cm1", "c1", 5, {
      customType: "ext",
      content: "Injected",
      display: false,
      details: { k: 2 },
    }),
    labelEntry("l1", "cm1", 6, "u1", "start"),
  ];
}

/** SPEC §8.7 example B: a compaction, a side branch and a branch summary. */
export function exampleB(): EntryLike[] {
  return [
    userEntry("u1", null, 0, "q1"),
    assistantEntry("a1", "u1", 1, "r1"),
    userEntry("u2", "a1", 2, "q2"),
    assistantEntry("a2", "u2", 3, "r2"),
    compactionEntry("k1", "a2", 4, "S1", "u2", 500),
    userEntry("u3", "k1", 5, "q3"),
    userEntry("x1", "u2", 6, "side"),
    entry("branch_summary", "b1", "a1", 7, { fromId: "x1", summary: "Tried a side path" }),
    userEntry("u4", "b1", 8, "q4"),
  ];
}

/** The messages an entry list's `message` entries hold, by id. */
export function messagesOf(entries: readonly EntryLike[], ...ids: string[]): unknown[] {
  return ids.map((id) => entries.find((e) => e.id === id)?.message);
}

/** The `message` object of an entry, or `{}` (so a missing entry fails an assertion, not a TypeError). */
export const messageOf = (e: unknown): JsonObject =>
  ((e as { message?: unknown } | null | undefined)?.message ?? {}) as JsonObject;
