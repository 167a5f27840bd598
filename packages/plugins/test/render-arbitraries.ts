/**
 * fast-check arbitraries of "anything a session file could hand a renderer": well-formed
 * entries of every built-in type, the same with fields of the wrong type, unknown types,
 * null content, huge and odd strings (control characters, lone surrogates, Markdown syntax),
 * and values that are not entries at all.
 */
import fc from "fast-check";

const ODD = [
  "",
  "```",
  "````js\nunclosed",
  "~~~\n",
  "# heading\n---\n> quote",
  "\u001b[31mred\u001b[0m",
  "nul\u0000char\r\nline",
  "\ud800 lone surrogate \udfff",
  "\u202Eevil bidi",
  "<script>alert(1)</script>",
  "*_[]()`|~&#",
  "1. list",
  "x".repeat(100_000),
];

/** Strings as users and models write them, plus hostile ones. */
export const oddString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD) },
);

/** Any value, including the exotic ones (null prototype, BigInt, Map, sparse arrays, ...). */
const wild = fc.anything({
  maxDepth: 3,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/**
 * A usage record with every count and cost drawn from `num`; `cost` wraps the cost record (to
 * add garbage or null), `requiredKeys` leaves the other fields out at times.
 */
export function usageRecordArb(
  num: fc.Arbitrary<unknown>,
  cost: (record: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>,
  requiredKeys?: ("input" | "output" | "cost")[],
): fc.Arbitrary<unknown> {
  const fields = {
    input: num,
    output: num,
    cacheRead: num,
    cacheWrite: num,
    cacheWrite1h: num,
    reasoning: num,
    totalTokens: num,
    cost: cost(fc.record({ input: num, output: num, cacheRead: num, cacheWrite: num, total: num })),
  };
  return requiredKeys === undefined ? fc.record(fields) : fc.record(fields, { requiredKeys });
}

/** Mostly the right type, sometimes anything at all. */
function field<T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: wild });
}

const num = field(fc.oneof(fc.integer(), fc.double()));
const usage = field(usageRecordArb(num, field));

const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text: field(oddString) }),
  fc.record({ type: fc.constant("image"), data: field(oddString), mimeType: field(oddString) }),
  fc.record({
    type: fc.constant("thinking"),
    thinking: field(oddString),
    redacted: field(fc.boolean()),
  }),
  fc.record({
    type: fc.constant("toolCall"),
    id: field(oddString),
    name: field(oddString),
    arguments: wild,
    argumentsError: fc.option(oddString, { nil: undefined }),
  }),
  fc.record({ type: oddString, extra: wild }),
  wild,
);
const content = fc.oneof(oddString, fc.array(block, { maxLength: 4 }), fc.constant(null), wild);

/** The fields a custom message and a custom_message entry share. */
const customMessageFields = {
  customType: field(fc.constantFrom("note", "widget")),
  content,
  display: field(fc.boolean()),
  details: wild,
};

const message = fc.oneof(
  fc.record({ role: fc.constant("user"), content }),
  fc.record({
    role: fc.constant("assistant"),
    content,
    provider: field(oddString),
    model: field(oddString),
    responseModel: fc.option(oddString, { nil: undefined }),
    usage,
    stopReason: field(fc.constantFrom("stop", "toolUse", "error", "aborted", "length")),
    errorMessage: fc.option(oddString, { nil: undefined }),
  }),
  fc.record({
    role: fc.constant("toolResult"),
    toolName: field(oddString),
    content,
    isError: field(fc.boolean()),
    usage: fc.option(usage, { nil: undefined }),
  }),
  fc.record({
    role: fc.constant("bashExecution"),
    command: field(oddString),
    output: field(oddString),
    exitCode: field(fc.integer()),
    cancelled: field(fc.boolean()),
    truncated: field(fc.boolean()),
    fullOutputPath: fc.option(oddString, { nil: undefined }),
    excludeFromContext: field(fc.boolean()),
  }),
  fc.record({ role: fc.constant("custom"), ...customMessageFields }),
  fc.record({
    role: fc.constant("branchSummary"),
    summary: field(oddString),
    fromId: field(oddString),
  }),
  fc.record({
    role: fc.constant("compactionSummary"),
    summary: field(oddString),
    tokensBefore: num,
  }),
  fc.record({
    role: fc.constant("system"),
    content,
    sections: field(fc.dictionary(oddString, fc.option(oddString, { nil: null }), { maxKeys: 3 })),
    toolsAdded: field(fc.array(fc.record({ name: field(oddString) }), { maxLength: 3 })),
    toolsRemoved: field(fc.array(fc.record({ name: field(oddString) }), { maxLength: 3 })),
  }),
  fc.record({ role: oddString, content }),
  wild,
);

/** The type-specific fields of each entry type (and unknown types). */
const body = fc.oneof(
  fc.record({ type: fc.constant("message"), message }),
  fc.record({ type: fc.constant("thinking_level_change"), thinkingLevel: field(oddString) }),
  fc.record({
    type: fc.constant("model_change"),
    provider: field(oddString),
    modelId: field(oddString),
  }),
  fc.record({
    type: fc.constant("compaction"),
    summary: field(oddString),
    firstKeptEntryId: field(oddString),
    tokensBefore: num,
    details: wild,
    usage: fc.option(usage, { nil: undefined }),
    fromHook: field(fc.boolean()),
  }),
  fc.record({
    type: fc.constant("branch_summary"),
    fromId: field(oddString),
    summary: field(oddString),
    usage: fc.option(usage, { nil: undefined }),
  }),
  fc.record({
    type: fc.constant("custom"),
    customType: field(fc.constantFrom("note", "widget")),
    data: wild,
  }),
  fc.record({ type: fc.constant("custom_message"), ...customMessageFields }),
  fc.record({ type: fc.constant("label"), targetId: field(oddString), label: field(oddString) }),
  fc.record({ type: fc.constant("session_info"), name: field(oddString) }),
  fc.record({
    type: fc.constant("usage"),
    kind: field(oddString),
    provider: field(oddString),
    model: field(oddString),
    usage,
    note: fc.option(oddString, { nil: undefined }),
  }),
  fc.record({
    type: fc.constant("context_edit"),
    targetId: field(oddString),
    replacement: fc.oneof(fc.constant(null), fc.record({ content }), wild),
  }),
  fc.record({ type: oddString, payload: wild }),
  fc.record({ type: wild }),
);

/** Entry ids from a small pool, so generated lists link up into trees (and collide). */
const id = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h") },
  { weight: 1, arbitrary: wild },
);

/** One record as a renderer may receive it. */
export const anyEntry: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .tuple(
        body,
        id,
        fc.oneof(fc.constant(null), id),
        field(fc.constant("2025-01-01T00:00:00.000Z")),
      )
      .map(([b, i, parentId, timestamp]) => ({ ...b, id: i, parentId, timestamp })),
  },
  { weight: 1, arbitrary: wild },
);
