/**
 * The agent loop: every model call is made with the context the session's context builder
 * gives for the current leaf, and every turn ends with the usage totals projection read back.
 */
import type { SessionContext, SessionManager, ToolCall } from "@pi-sessions/core";
import { computeUsageTotals, type UsageTotalsResult } from "@pi-sessions/plugins";
import type { ScriptedModel } from "./scripted-model.js";
import { contextTokens } from "./tokens.js";
import { runTool } from "./tools.js";

/** What happened in one turn. */
export interface TurnReport {
  readonly prompt: string;
  /** The roles of the context sent on each model call of the turn. */
  readonly contexts: readonly string[][];
  /** The model's last text. */
  readonly answer: string;
  /** Usage totals after the turn: the current branch and the whole tree. */
  readonly usage: UsageTotalsResult;
}

/** Model calls per turn before the loop gives up (a scripted model never loops, but still). */
const MAX_STEPS = 8;

/** One user prompt, then model calls and tool runs until the model stops calling tools. */
export function runTurn(sm: SessionManager, model: ScriptedModel, prompt: string): TurnReport {
  sm.appendMessage({ role: "user", content: prompt, timestamp: 0 });
  const contexts: string[][] = [];
  let answer = "";
  for (let step = 0; step < MAX_STEPS; step++) {
    // The context builder: compaction- and branch-aware messages for the current leaf.
    const context: SessionContext = sm.buildSessionContext();
    contexts.push(context.messages.map((m) => m.role));
    const message = model.respond(context);
    sm.appendMessage(message);
    const calls = message.content.filter((b): b is ToolCall => b.type === "toolCall");
    if (calls.length === 0) {
      answer = message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
      break;
    }
    for (const call of calls) sm.appendMessage(runTool(call));
  }
  return { prompt, contexts, answer, usage: computeUsageTotals(sm) };
}

/**
 * Compacts the current branch when its context is longer than `maxMessages`: the summariser
 * sees the whole context, the summary keeps the last user prompt onwards, and the summariser's
 * usage is recorded on the compaction entry (it counts toward the totals).
 */
export function compactIfNeeded(
  sm: SessionManager,
  model: ScriptedModel,
  maxMessages: number,
): boolean {
  const context = sm.buildSessionContext();
  if (context.messages.length <= maxMessages) return false;
  const lastUser = [...sm.getBranch()]
    .reverse()
    .find((e) => e.type === "message" && e.message.role === "user");
  const { summary, usage } = model.summarize(context);
  const tokensBefore = contextTokens(context.messages);
  sm.appendCompaction(summary, lastUser?.id ?? null, tokensBefore, undefined, false, usage);
  return true;
}
