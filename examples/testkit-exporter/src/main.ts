/**
 * Prints a pi session file as Markdown (its active branch).
 *
 *   pnpm --filter @pi-sessions/example-testkit-exporter start [session.jsonl] [--thinking]
 *
 * Without a file it builds a small demo session in memory with @pi-sessions/core (a question,
 * a tool call, a compaction and a side branch) and exports that.
 */
import { readFileSync } from "node:fs";
import { type AssistantMessage, SessionManager } from "@pi-sessions/core";
import { exportMarkdown } from "./exporter.js";

/** A demo session as JSONL text. */
function demoSession(): string {
  const sm = SessionManager.inMemory("/home/me/project");
  const usage = {
    input: 10,
    output: 20,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 30,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const assistant = (content: AssistantMessage["content"]): AssistantMessage => ({
    role: "assistant" as const,
    content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-x",
    usage,
    stopReason: "stop" as const,
    timestamp: Date.now(),
  });
  sm.appendSessionInfo("Fix the flaky test");
  const q = sm.appendMessage({
    role: "user",
    content: "Why does `npm test` fail sometimes?",
    timestamp: Date.now(),
  });
  sm.appendMessage({
    role: "user",
    content: "Side question: which Node version?",
    timestamp: Date.now(),
  });
  sm.branchWithSummary(q, "Asked about the Node version; not relevant.");
  sm.appendMessage(
    assistant([
      { type: "thinking", thinking: "Probably a race." },
      { type: "toolCall", id: "c1", name: "bash", arguments: { command: "npm test" } },
    ]),
  );
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "c1",
    toolName: "bash",
    content: [{ type: "text", text: "1 failed: timeout after 50 ms" }],
    isError: false,
    timestamp: Date.now(),
  });
  sm.appendCompaction("The test times out because of a fixed 50 ms sleep.", null, 1200);
  sm.appendMessage(assistant([{ type: "text", text: "Replace the sleep with an awaited event." }]));
  sm.appendMessage({ role: "user", content: "Thanks, that fixed it.", timestamp: Date.now() });
  return [sm.getHeader(), ...sm.getEntries()].map((r) => JSON.stringify(r)).join("\n");
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
const text = file ? readFileSync(file, "utf8") : demoSession();
process.stdout.write(exportMarkdown(text, { thinking: args.includes("--thinking") }));
