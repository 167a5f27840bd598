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

/** Per-million-token prices (USD) of the demo models: input, output, cache read, cache write. */
const PRICES: Record<string, readonly [number, number, number, number]> = {
  "claude-sonnet-4-5": [3, 15, 0.3, 3.75],
  "gpt-5": [1.25, 10, 0.125, 0],
};

/** A usage record with costs computed from the model's prices. */
export function usageOf(model: string, input: number, output: number, cacheRead = 0): Usage {
  const [pin, pout, pread, pwrite] = PRICES[model] ?? [1, 1, 1, 1];
  const cacheWrite = Math.round(input / 4);
  const cost = {
    input: (input * pin) / 1e6,
    output: (output * pout) / 1e6,
    cacheRead: (cacheRead * pread) / 1e6,
    cacheWrite: (cacheWrite * pwrite) / 1e6,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost,
  };
}

/** A user message. */
export function user(clock: MessageClock, text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp: clock.next() };
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
  return {
    role: "assistant",
    content,
    api: spec.api,
    provider: spec.provider,
    model: spec.model,
    usage: usageOf(spec.model, tokens.input, tokens.output, tokens.cacheRead ?? 0),
    stopReason: tool ? "toolUse" : "stop",
    timestamp: clock.next(),
  };
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
