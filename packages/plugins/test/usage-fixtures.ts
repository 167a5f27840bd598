/**
 * Shared helpers of the usage and render tests: the corpus location (same rule as core's
 * tests), temp copies of corpus files (opening a v1 file rewrites it), and message builders.
 */
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage, Usage, UserMessage } from "@pi-sessions/core";
import { CORPUS_DIR, tempDir } from "@pi-sessions/test-utils";

// Re-exported for the suites that import them from here with the other fixtures.
export { CORPUS_DIR, tempDir } from "@pi-sessions/test-utils";

/** Every `.jsonl` file of the corpus. */
export function corpusFiles(): string[] {
  return readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
}

/** A copy of a corpus file in a temp dir (never open the original). */
export function corpusCopy(name: string): { dir: string; file: string } {
  const dir = tempDir("pi-plugins-");
  const file = join(dir, name);
  copyFileSync(join(CORPUS_DIR, name), file);
  return { dir, file };
}

/** A usage object; `n` scales every number so records differ. */
export function usage(n: number, extra: Partial<Usage> = {}): Usage {
  return {
    input: 10 * n,
    output: 5 * n,
    cacheRead: 3 * n,
    cacheWrite: 2 * n,
    totalTokens: 20 * n,
    cost: {
      input: 0.01 * n,
      output: 0.02 * n,
      cacheRead: 0.001 * n,
      cacheWrite: 0.002 * n,
      total: 0.033 * n,
    },
    ...extra,
  };
}

export function user(text: string): UserMessage {
  return { role: "user", content: text, timestamp: 1 };
}

export function assistant(
  text: string,
  u: Usage = usage(1),
  provider = "anthropic",
  model = "claude-x",
): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider,
    model,
    usage: u,
    stopReason: "stop",
    timestamp: 2,
  };
}
