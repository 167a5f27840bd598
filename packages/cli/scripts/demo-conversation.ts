/**
 * Building blocks for the generated demo sessions: message factories with plausible usage and
 * cost figures, so `tree`, `context` and `usage` have something real to show.
 */

import type {
  AssistantMessage,
  BashExecutionMessage,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "@pi-sessions/core";
import {
  assistantMessage,
  SONNET_PRICES,
  type TokenPrices,
  usageRecord,
  userMessage,
} from "@pi-sessions/test-utils/pi-messages";

/** A message clock: each call returns a time 20–80 s after the previous one (deterministic). */
export class MessageClock {
  private ms: number;
  private step = 0;

  constructor(start: string) {
    this.ms = Date.parse(start);
  }

  next(): number {
    this.step++;
    this.ms += 20_000 + ((this.step * 7919) % 60) * 1000;
    return this.ms;
  }
}

/** Prices of the demo models (USD per million tokens); an unknown model costs 1 per kind. */
const PRICES: Record<string, TokenPrices> = {
  "claude-sonnet-4-5": SONNET_PRICES,
  "gpt-5": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
};
const UNKNOWN_PRICES: TokenPrices = { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 };

/** A usage record priced for `model`; a quarter of the input is written to the cache. */
function usageOf(model: string, input: number, output: number, cacheRead = 0): Usage {
  const cacheWrite = Math.round(input / 4);
  return usageRecord({ input, output, cacheRead, cacheWrite }, PRICES[model] ?? UNKNOWN_PRICES);
}

/** A user message. */
export function user(clock: MessageClock, text: string): UserMessage {
  return userMessage(text, clock.next());
}

/** Where an assistant message came from. */
export interface ModelSpec {
  readonly provider: string;
  readonly model: string;
  readonly api: string;
}

/** Anthropic's Claude Sonnet 4.5, as pi records it. */
export const SONNET: ModelSpec = {
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  api: "anthropic-messages",
};
/** OpenAI's GPT-5, as pi records it. */
export const GPT5: ModelSpec = { provider: "openai", model: "gpt-5", api: "openai-responses" };

/** An assistant reply, optionally thinking first and calling one tool. */
export function assistant(
  clock: MessageClock,
  spec: ModelSpec,
  text: string,
  tokens: { input: number; output: number; cacheRead?: number },
  tool?: { id: string; name: string; args: Record<string, unknown>; thinking?: string },
): AssistantMessage {
  const content: AssistantMessage["content"] = [];
  if (tool?.thinking) content.push({ type: "thinking", thinking: tool.thinking });
  if (text !== "") content.push({ type: "text", text });
  if (tool) content.push({ type: "toolCall", id: tool.id, name: tool.name, arguments: tool.args });
  return assistantMessage({
    content,
    api: spec.api,
    provider: spec.provider,
    model: spec.model,
    usage: usageOf(spec.model, tokens.input, tokens.output, tokens.cacheRead ?? 0),
    stopReason: tool ? "toolUse" : "stop",
    timestamp: clock.next(),
  });
}

/** The result of a tool call. */
export function toolResult(
  clock: MessageClock,
  toolCallId: string,
  toolName: string,
  text: string,
  isError = false,
): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    content: [{ type: "text", text }],
    isError,
    timestamp: clock.next(),
  };
}

/** A `!` shell command the user ran. */
export function bash(clock: MessageClock, command: string, output: string): BashExecutionMessage {
  return {
    role: "bashExecution",
    command,
    output,
    exitCode: 0,
    cancelled: false,
    truncated: false,
    timestamp: clock.next(),
  };
}
