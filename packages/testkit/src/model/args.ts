/**
 * Arguments for the model commands, from plain fast-check primitives: messages of every role
 * (string and block content, missing content, unknown roles and blocks), usage objects,
 * labels that set and clear, session names with line breaks, valid and invalid context-edit
 * replacements. Small value sets keep counterexamples short.
 */
import fc from "fast-check";

type Json = Record<string, unknown>;

/** Short text: empty, spaced, multi-line, non-ASCII, or random. */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", "hello", " padded ", "line\nbreak", "é ünï 🙂"),
  fc.string({ maxLength: 5 }),
);

/** A Usage object (SPEC §3.5); the session layer does not check it. */
export const usageArb: fc.Arbitrary<Json> = fc.record({
  input: fc.nat(999),
  output: fc.nat(999),
  cacheRead: fc.nat(9),
  cacheWrite: fc.nat(9),
  totalTokens: fc.nat(9999),
  cost: fc.record({
    input: fc.constantFrom(0, 0.5),
    output: fc.constantFrom(0, 2),
    cacheRead: fc.constant(0),
    cacheWrite: fc.constant(0),
    total: fc.constantFrom(0, 2.5),
  }),
});

const textBlock = fc.record({ type: fc.constant("text"), text: textArb });
const imageBlock = fc.constant({ type: "image", data: "aGk=", mimeType: "image/png" });
const thinkingBlock = fc.record({ type: fc.constant("thinking"), thinking: textArb });
const toolCallBlock = fc.record({
  type: fc.constant("toolCall"),
  id: fc.constantFrom("call_1", "call_2"),
  name: fc.constantFrom("bash", "read"),
  arguments: fc.constantFrom({}, { path: "a.ts" }),
});
/** A block type no version defines: kept and passed through (SPEC §2.6). */
const unknownBlock = fc.constant({ type: "hologram", beam: [1, null] });
const timestamp = fc.integer({ min: 1_700_000_000_000, max: 1_800_000_000_000 });

/** User-style content: a string or text/image blocks. */
export const userContentArb: fc.Arbitrary<unknown> = fc.oneof(
  textArb,
  fc.array(fc.oneof(textBlock, imageBlock), { maxLength: 2 }),
);

const user = fc.record({ role: fc.constant("user"), content: userContentArb, timestamp });
const assistant = fc.record({
  role: fc.constant("assistant"),
  content: fc.array(fc.oneof(textBlock, thinkingBlock, toolCallBlock, unknownBlock), {
    maxLength: 2,
  }),
  api: fc.constantFrom("anthropic-messages", "openai-responses"),
  provider: fc.constantFrom("anthropic", "openai"),
  model: fc.constantFrom("claude-x", "gpt-x"),
  usage: usageArb,
  stopReason: fc.constantFrom("stop", "toolUse", "aborted"),
  timestamp,
});
const toolResult = fc.record({
  role: fc.constant("toolResult"),
  toolCallId: fc.constantFrom("call_1", "call_2"),
  toolName: fc.constantFrom("bash", "read"),
  content: fc.array(textBlock, { maxLength: 2 }),
  isError: fc.boolean(),
  timestamp,
});
const bash = fc.record({
  role: fc.constant("bashExecution"),
  command: fc.constantFrom("ls", "git status"),
  output: textArb,
  exitCode: fc.constantFrom(0, 1),
  cancelled: fc.boolean(),
  truncated: fc.boolean(),
  timestamp,
});
const custom = fc.record({
  role: fc.constant("custom"),
  customType: fc.constantFrom("ext", "note"),
  content: userContentArb,
  display: fc.boolean(),
  timestamp,
});
const tool = fc.record({
  name: fc.constantFrom("bash", "read"),
  description: fc.constantFrom("d1", "d2"),
  parameters: fc.constant({ type: "object" }),
});
/** System messages feed the compaction checkpoint (SPEC §5.4); content is string or text blocks. */
const system = fc.record(
  {
    role: fc.constant("system"),
    content: fc.oneof(textArb, fc.array(textBlock, { maxLength: 2 })),
    sections: fc.dictionary(fc.constantFrom("a", "b"), fc.option(textArb, { nil: null }), {
      maxKeys: 2,
    }),
    toolsAdded: fc.array(tool, { maxLength: 2 }),
    toolsRemoved: fc.array(fc.record({ name: fc.constantFrom("bash", "read") }), { maxLength: 1 }),
    timestamp,
  },
  { requiredKeys: ["role", "content", "timestamp"] },
);
/** Content null: the context uses `[]` (or `""` for system) without changing the entry (§8.4). */
const contentless = fc.record({
  role: fc.constantFrom("user", "assistant", "toolResult", "system"),
  content: fc.constant(null),
  timestamp,
});
const unknownRole = fc.record({ role: fc.constant("hologram"), beam: textArb, timestamp });

/** A message of any role, weighted towards the conversation roles. */
export const messageArb: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: user, weight: 4 },
  { arbitrary: assistant, weight: 4 },
  { arbitrary: toolResult, weight: 2 },
  { arbitrary: bash, weight: 1 },
  { arbitrary: custom, weight: 1 },
  { arbitrary: system, weight: 2 },
  { arbitrary: contentless, weight: 1 },
  { arbitrary: unknownRole, weight: 1 },
);

/** Extension data, including undefined (the key is then left out). */
export const dataArb: fc.Arbitrary<unknown> = fc.constantFrom(undefined, null, 0, "s", [1, 2], {
  a: { b: [true] },
});

/** Labels: truthy sets, `undefined` / `""` / `null` clear (SPEC §7.10). */
export const labelArb: fc.Arbitrary<string | null | undefined> = fc.constantFrom(
  "start",
  "checkpoint",
  " spaced ",
  undefined,
  "",
  null,
);

/** Session names with CR/LF runs and surrounding spaces (SPEC §5.4). */
export const sessionNameArb: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("name", "  My\r\nSession \n name  ", "", "   ", "\r\n", "a\rb\n\nc"),
  textArb,
);

/** Context-edit replacements, valid (null, string, blocks) and invalid (SPEC §5.4). */
export const replacementArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.record({ content: textArb }),
  fc.record({ content: fc.array(textBlock, { maxLength: 2 }) }),
  fc.constantFrom(undefined, 42, "x", {}, { content: 5 }, { content: null }),
);

/** Optional `details`, `fromHook` and `usage` of compactions and branch summaries. */
export const extrasArb: fc.Arbitrary<{ details: unknown; fromHook?: boolean; usage?: Json }> =
  fc.record({
    details: fc.constantFrom(undefined, { readFiles: ["a.ts"], modifiedFiles: [] }),
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
  { arbitrary: fc.record({ unknown: fc.constant("no-such-entry") }), weight: 1 },
);
