import { createDeterministicEnv, SessionManager, type Usage } from "@pi-sessions/core";

/** Usage figures for the scripted assistant replies. */
const usage = (input: number, output: number): Usage => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: {
    input: input * 3e-6,
    output: output * 15e-6,
    cacheRead: 0,
    cacheWrite: 0,
    total: input * 3e-6 + output * 15e-6,
  },
});

/** A message clock one second per tick; one per session, so every build is identical. */
function messageClock(): () => number {
  let clock = Date.UTC(2025, 0, 1, 9);
  return () => (clock += 1000);
}

function reply(
  sm: SessionManager,
  t: () => number,
  text: string,
  provider = "anthropic",
  model = "claude-sonnet-4-5",
): string {
  return sm.appendMessage({
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider,
    model,
    usage: usage(1200, 150),
    stopReason: "stop",
    timestamp: t(),
  });
}

/**
 * A small but complete session: a model and thinking level, a conversation that forks into
 * two branches (one left with a branch summary), a compaction, labels and a name. Built in
 * memory with a deterministic clock and id source, so the output is the same on every run.
 */
export function buildDemoSession(): SessionManager {
  const sm = SessionManager.inMemory("/home/dev/project", {
    env: createDeterministicEnv({ seed: 7 }),
  });
  const t = messageClock();
  sm.appendModelChange("anthropic", "claude-sonnet-4-5");
  sm.appendThinkingLevelChange("medium");
  const ask = sm.appendMessage({ role: "user", content: "List the files in src.", timestamp: t() });
  const answer = reply(sm, t, "src has index.ts, session.ts and store.ts.");
  sm.appendLabelChange(ask, "start");
  sm.appendMessage({
    role: "user",
    content: "Rewrite store.ts to stream the file.",
    timestamp: t(),
  });
  const plan = reply(sm, t, "Plan: read line by line with a decoder.");
  sm.appendMessage({ role: "user", content: "Go ahead.", timestamp: t() });
  reply(sm, t, "Done: store.ts now streams.");
  sm.appendCompaction("Explored src; store.ts now streams.", plan, 4200);
  sm.appendMessage({ role: "user", content: "Add a benchmark.", timestamp: t() });
  const bench = reply(sm, t, "Added bench/store.bench.ts.");
  sm.appendLabelChange(bench, "bench");
  // Go back to the first answer and try another direction, summarising what was left.
  sm.branchWithSummary(answer, "Tried a streaming rewrite of store.ts and added a benchmark.");
  sm.appendModelChange("openai", "gpt-5");
  sm.appendMessage({ role: "user", content: "Instead, document the modules.", timestamp: t() });
  reply(sm, t, "Wrote docs/modules.md.", "openai", "gpt-5");
  sm.appendSessionInfo("Layout and docs");
  return sm;
}
