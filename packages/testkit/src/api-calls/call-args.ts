/**
 * Arguments for the model commands and the differential operations, from plain fast-check
 * primitives: messages of every role (string and block content, missing or null content,
 * unknown roles and blocks, undefined-valued fields, summary roles), usage objects, labels
 * that set and clear, session names with line breaks, valid and invalid context-edit
 * replacements. Small value sets keep counterexamples short.
 */
import fc from "fast-check";
import { ASSISTANT_REQUIRED_KEYS } from "../arbitraries/messages.js";

type Json = Record<string, unknown>;

/** Short text that is sometimes empty, spaced, multi-line or non-ASCII. */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", "hello", " padded ", "line\nbreak", "é ünï 🙂", "tab\tcr\r"),
  fc.string({ maxLength: 6 }),
);

export const usageArb: fc.Arbitrary<Json> = fc.record({
  input: fc.nat(999),
  output: fc.nat(999),
  cacheRead: fc.nat(9),
  cacheWrite: fc.nat(9),
  totalTokens: fc.nat(9999),
  cost: fc.record({
    input: fc.constantFrom(0, 0.5, 1.25),
    output: fc.constantFrom(0, 2),
    cacheRead: fc.constant(0),
    cacheWrite: fc.constant(0),
    total: fc.constantFrom(0, 3.75),
  }),
});

const textBlock = fc.record(
  { type: fc.constant("text"), text: textArb, textSignature: fc.constantFrom("sig", undefined) },
  { requiredKeys: ["type", "text"] },
);
const imageBlock = fc.constant({ type: "image", data: "aGVsbG8=", mimeType: "image/png" });
const thinkingBlock = fc.record({ type: fc.constant("thinking"), thinking: textArb });
const toolCallBlock = fc.record({
  type: fc.constant("toolCall"),
  id: fc.constantFrom("call_1", "call_2"),
  name: fc.constantFrom("bash", "read"),
  arguments: fc.constantFrom({}, { path: "a.ts" }, { cmd: "ls", n: 2 }),
});
/** A block type no version defines: kept and passed through. */
const unknownBlock = fc.constant({ type: "hologram", payload: [1, { x: null }] });

export const userContentArb: fc.Arbitrary<unknown> = fc.oneof(
  textArb,
  fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 3 }),
);
const assistantContent = fc.array(fc.oneof(textBlock, thinkingBlock, toolCallBlock, unknownBlock), {
  maxLength: 3,
});
const ts = fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 });

const userMsg = fc.record({ role: fc.constant("user"), content: userContentArb, timestamp: ts });
const assistantMsg = fc.record(
  {
    role: fc.constant("assistant"),
    content: assistantContent,
    api: fc.constantFrom("anthropic-messages", "openai-responses"),
    provider: fc.constantFrom("anthropic", "openai"),
    model: fc.constantFrom("claude-x", "gpt-x"),
    usage: usageArb,
    stopReason: fc.constantFrom(
      "stop",
      "toolUse",
      "length",
      "error",
      "aborted",
      "deferred",
      "weird",
    ),
    errorMessage: fc.constantFrom(undefined, "boom"),
    timestamp: ts,
  },
  {
    requiredKeys: [...ASSISTANT_REQUIRED_KEYS],
  },
);
const toolResultMsg = fc.record({
  role: fc.constant("toolResult"),
  toolCallId: fc.constantFrom("call_1", "call_2"),
  toolName: fc.constantFrom("bash", "read"),
  content: fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 2 }),
  details: fc.constantFrom(undefined, { diff: "+a" }),
  isError: fc.boolean(),
  timestamp: ts,
});
const bashMsg = fc.record({
  role: fc.constant("bashExecution"),
  command: fc.constantFrom("ls", "git status"),
  output: textArb,
  exitCode: fc.constantFrom(0, 1, undefined),
  cancelled: fc.boolean(),
  truncated: fc.boolean(),
  excludeFromContext: fc.constantFrom(undefined, true, false),
  timestamp: ts,
});
const customMsg = fc.record({
  role: fc.constant("custom"),
  customType: fc.constantFrom("ext", "note"),
  content: userContentArb,
  display: fc.boolean(),
  details: fc.constantFrom(undefined, { k: 1 }),
  timestamp: ts,
});
const tool = fc.record({
  name: fc.constantFrom("bash", "read", "edit"),
  description: fc.constantFrom("d1", "d2"),
  parameters: fc.constant({ type: "object" }),
});
/** System messages drive the compaction's `systemMessage` checkpoint (SPEC §5.4). */
const systemMsg = fc.record(
  {
    role: fc.constant("system"),
    content: fc.oneof(textArb, fc.array(textBlock, { maxLength: 3 })),
    sections: fc.dictionary(fc.constantFrom("a", "b", "c"), fc.option(textArb, { nil: null }), {
      maxKeys: 2,
    }),
    toolsAdded: fc.array(tool, { maxLength: 2 }),
    toolsRemoved: fc.array(fc.record({ name: fc.constantFrom("bash", "read", "edit") }), {
      maxLength: 1,
    }),
    timestamp: ts,
  },
  { requiredKeys: ["role", "content", "timestamp"] },
);
/** Summary roles are not meant to be stored, but nothing rejects them (SPEC §3.3). */
const summaryMsg = fc.oneof(
  fc.record({
    role: fc.constant("branchSummary"),
    summary: textArb,
    fromId: fc.constant("root"),
    timestamp: ts,
  }),
  fc.record({
    role: fc.constant("compactionSummary"),
    summary: textArb,
    tokensBefore: fc.nat(),
    timestamp: ts,
  }),
);
/** Content missing or null: context uses `[]` (or `""` for system) without changing the entry. */
const contentless = fc.record(
  {
    role: fc.constantFrom("user", "assistant", "toolResult", "system", "custom"),
    content: fc.constant(null),
    timestamp: ts,
  },
  { requiredKeys: ["role", "timestamp"] },
);
const unknownRole = fc.record({ role: fc.constant("hologram"), beam: textArb, timestamp: ts });

/** A message of any role, weighted towards the conversation roles. */
export const messageArb: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: userMsg, weight: 4 },
  { arbitrary: assistantMsg, weight: 4 },
  { arbitrary: toolResultMsg, weight: 2 },
  { arbitrary: bashMsg, weight: 1 },
  { arbitrary: customMsg, weight: 1 },
  { arbitrary: systemMsg, weight: 2 },
  { arbitrary: summaryMsg, weight: 1 },
  { arbitrary: contentless, weight: 1 },
  { arbitrary: unknownRole, weight: 1 },
);

/** Custom-message content: a string or text/image blocks, rarely null (context uses `[]`). */
export const customContentArb: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: userContentArb, weight: 9 },
  { arbitrary: fc.constant(null), weight: 1 },
);

/** Arbitrary extension data, including undefined (key left out). */
export const dataArb: fc.Arbitrary<unknown> = fc.constantFrom(undefined, null, 0, "s", [1, 2], {
  a: { b: [true] },
});

/** Label values: truthy sets, `undefined` / `""` / `null` clear (SPEC §7.10). */
export const labelArb: fc.Arbitrary<string | null | undefined> = fc.constantFrom(
  "start",
  "checkpoint",
  " spaced ",
  "   ",
  undefined,
  "",
  null,
);

/** Session names with CR/LF runs and surrounding spaces (SPEC §5.4). */
export const sessionNameArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("name", "  My\r\nSession \n name  ", "", "   ", "\r\n", "a\rb\n\nc", " x "),
  textArb,
);

/** Context-edit replacements: valid (null, string, blocks, extra keys) and invalid. */
export const replacementArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.record({ content: textArb }),
  fc.record({ content: fc.array(textBlock, { maxLength: 2 }) }),
  // Extra keys only with array content: for an assistant/toolResult target with *string*
  // content the reference rebuilds the replacement as `{content: [text block]}` and drops
  // them while ours keeps them (reported divergence; see the reference-differences test).
  fc.record({ content: fc.array(textBlock, { maxLength: 1 }), note: fc.constant("extra key") }),
  fc.constantFrom(undefined, 42, "x", {}, { content: 5 }, { content: null }, [], {
    content: { text: "no" },
  }),
);

/** Optional details / fromHook / usage arguments of compactions and branch summaries. */
export const extrasArb = fc.record({
  details: fc.constantFrom(undefined, { readFiles: ["a.ts"], modifiedFiles: [] }, "d"),
  fromHook: fc.constantFrom(undefined, true, false),
  usage: fc.option(usageArb, { nil: undefined }),
});

/**
 * How a command names an entry: by index into every id created so far (dropped ones
 * included, which are then unknown), by index into the current branch, or an id that never
 * existed. Resolved when the command runs, since ids are random.
 */
export type Target = { pick: number } | { onBranch: number } | { unknown: string };

/** Targets, weighted towards existing entries. */
export const targetArb: fc.Arbitrary<Target> = fc.oneof(
  { arbitrary: fc.record({ pick: fc.nat(63) }), weight: 5 },
  { arbitrary: fc.record({ onBranch: fc.nat(63) }), weight: 3 },
  { arbitrary: fc.record({ unknown: fc.constantFrom("missing1", "no-such-entry") }), weight: 1 },
);
