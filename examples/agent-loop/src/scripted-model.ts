/**
 * A scripted "model": no network, a few rules that answer from the context it is given, and
 * usage that is computed from that context like a real provider bills it (prompt tokens,
 * cached prefix, output tokens, a per-model price list).
 */
import type {
  AssistantMessage,
  SessionContext,
  ToolCall,
  ToolResultMessage,
  Usage,
} from "@pi-sessions/core";
import { contextTokens, tokensOf } from "./tokens.js";

/** Dollars per million tokens. */
interface Price {
  input: number;
  output: number;
  cacheRead: number;
}

const PRICES: Record<string, Price> = {
  "toy/small": { input: 1, output: 2, cacheRead: 0.1 },
  "toy/large": { input: 5, output: 10, cacheRead: 0.5 },
};

/** Usage of one call: `prompt` tokens of which `cached` were read from the cache. */
export function billedUsage(key: string, prompt: number, cached: number, output: number): Usage {
  const price = PRICES[key] ?? { input: 0, output: 0, cacheRead: 0 };
  const input = prompt - cached;
  const cost = {
    input: (input * price.input) / 1e6,
    output: (output * price.output) / 1e6,
    cacheRead: (cached * price.cacheRead) / 1e6,
    cacheWrite: 0,
    total: 0,
  };
  cost.total = cost.input + cost.output + cost.cacheRead;
  return { input, output, cacheRead: cached, cacheWrite: 0, totalTokens: prompt + output, cost };
}

/** What the model decides to say for a context; `callId` names a tool call it makes. */
function reply(context: SessionContext, callId: string): AssistantMessage["content"] {
  const last = context.messages.at(-1);
  if (last?.role === "toolResult") {
    const result = last as ToolResultMessage;
    const text = result.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    const first = text.split("\n")[0] ?? "";
    return [{ type: "text", text: `The ${result.toolName} tool says: ${first}` }];
  }
  const prompt = last?.role === "user" && typeof last.content === "string" ? last.content : "";
  const read = /read (\S+)/i.exec(prompt);
  if (read) return [call(callId, "read", { path: read[1] })];
  if (/list|files/i.test(prompt)) return [call(callId, "ls", {})];
  return [{ type: "text", text: `You said: ${prompt}` }];
}

function call(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

/**
 * A model that answers from its rules. It remembers the size of its previous prompt to
 * simulate prompt caching: the part of the new prompt that was sent before is billed as a
 * cache read.
 */
export class ScriptedModel {
  private lastPrompt = 0;
  private calls = 0;

  /** The assistant message for a context (provider/model taken from the context's model). */
  respond(context: SessionContext): AssistantMessage {
    const provider = context.model?.provider ?? "toy";
    const model = context.model?.modelId ?? "small";
    this.calls++;
    const content = reply(context, `call_${this.calls}`);
    const prompt = contextTokens(context.messages);
    const cached = Math.min(this.lastPrompt, prompt);
    this.lastPrompt = prompt;
    const output = content.reduce(
      (n, b) => n + tokensOf(b.type === "text" ? b.text : JSON.stringify(b)),
      0,
    );
    const toolUse = content.some((b) => b.type === "toolCall");
    return {
      role: "assistant",
      content,
      api: "scripted",
      provider,
      model,
      usage: billedUsage(`${provider}/${model}`, prompt, cached, output),
      stopReason: toolUse ? "toolUse" : "stop",
      timestamp: 0,
    };
  }

  /** A summary of a context, as a summariser model would write it, with its usage. */
  summarize(context: SessionContext): { summary: string; usage: Usage } {
    const users = context.messages.filter((m) => m.role === "user").length;
    const summary = `The user asked ${users} question(s); the assistant used tools to answer.`;
    const prompt = contextTokens(context.messages);
    this.lastPrompt = 0; // The cache does not survive a rewritten context.
    return { summary, usage: billedUsage("toy/small", prompt, 0, tokensOf(summary)) };
  }
}
