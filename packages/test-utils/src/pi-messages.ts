/**
 * Builders of pi's message and usage shapes for fixtures, benchmarks and demo sessions, so the
 * field order pi writes and the cost arithmetic exist once. The types are structural, written
 * here rather than imported from `@pi-sessions/core`: core's tests depend on this package, and a
 * dependency back would make a workspace cycle. Core's `Usage`, `UserMessage` and
 * `AssistantMessage` accept what these return.
 *
 * The message shapes are type aliases, not interfaces, so a benchmark can hold them as
 * `Record<string, unknown>`. This module imports nothing from vitest, so scripts and benchmarks that run outside a test
 * import it by its own entry, `@pi-sessions/test-utils/pi-messages`.
 */

/** Per-million-token prices in USD, as providers publish them. */
export interface TokenPrices {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** Anthropic's Claude Sonnet 4.5 prices. */
export const SONNET_PRICES: TokenPrices = {
  input: 3,
  output: 15,
  cacheRead: 0.3,
  cacheWrite: 3.75,
};

/** Token counts of one model call; the optional ones are written only when given. */
export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** The part of `cacheWrite` written with 1-hour retention. */
  readonly cacheWrite1h?: number;
  /** Reasoning tokens (already counted in `output`). */
  readonly reasoning?: number;
}

/** A usage object as pi records it (SPEC §3.5). */
export type UsageRecord = {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h?: number;
  reasoning?: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
};

/**
 * A usage object for `tokens` with each cost priced per million tokens and the total their sum.
 * Keys come in the order pi writes them, so generated files look like real ones.
 */
export function usageRecord(tokens: TokenCounts, prices: TokenPrices = SONNET_PRICES): UsageRecord {
  const { input, output, cacheRead, cacheWrite } = tokens;
  const cost = {
    input: (input * prices.input) / 1e6,
    output: (output * prices.output) / 1e6,
    cacheRead: (cacheRead * prices.cacheRead) / 1e6,
    cacheWrite: (cacheWrite * prices.cacheWrite) / 1e6,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    ...(tokens.cacheWrite1h !== undefined ? { cacheWrite1h: tokens.cacheWrite1h } : {}),
    ...(tokens.reasoning !== undefined ? { reasoning: tokens.reasoning } : {}),
    totalTokens: input + output + cacheRead + cacheWrite,
    cost,
  };
}

/** The names of a usage object's token counts, in the order pi writes them. */
export const USAGE_TOKEN_FIELDS = [
  "input",
  "output",
  "cacheRead",
  "cacheWrite",
  "cacheWrite1h",
  "reasoning",
  "totalTokens",
] as const;

/** A text content block. */
export type TextBlock = {
  type: "text";
  text: string;
};

/** A text content block holding `text`. */
export function textBlock(text: string): TextBlock {
  return { type: "text", text };
}

/** A user message as pi records it. */
export type UserMessageFixture = {
  role: "user";
  content: TextBlock[];
  timestamp: number;
};

/** A user message of one text block. */
export function userMessage(text: string, timestamp: number): UserMessageFixture {
  return { role: "user", content: [textBlock(text)], timestamp };
}

/** What {@link assistantMessage} needs; the model defaults to Claude Sonnet 4.5. */
export interface AssistantFields<Block, U> {
  readonly content: Block[];
  readonly usage: U;
  readonly timestamp: number;
  /** Default `"anthropic-messages"`. */
  readonly api?: string;
  /** Default `"anthropic"`. */
  readonly provider?: string;
  /** Default `"claude-sonnet-4-5"`. */
  readonly model?: string;
  /** Default `"stop"`. */
  readonly stopReason?: string;
}

/** An assistant message as pi records it. */
export type AssistantMessageFixture<Block, U> = {
  role: "assistant";
  content: Block[];
  api: string;
  provider: string;
  model: string;
  usage: U;
  stopReason: string;
  timestamp: number;
};

/** An assistant message, its keys in the order pi writes them. */
export function assistantMessage<Block, U>(
  fields: AssistantFields<Block, U>,
): AssistantMessageFixture<Block, U> {
  return {
    role: "assistant",
    content: fields.content,
    api: fields.api ?? "anthropic-messages",
    provider: fields.provider ?? "anthropic",
    model: fields.model ?? "claude-sonnet-4-5",
    usage: fields.usage,
    stopReason: fields.stopReason ?? "stop",
    timestamp: fields.timestamp,
  };
}
