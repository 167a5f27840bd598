/**
 * What core's remaining property tests share: run settings and the payloads of the random
 * manager operations in `operations.ts`. The invariant properties themselves (I2–I4, I6, I8,
 * I9) and their entry-log arbitraries run in the testkit's tests (`testkit/test/properties`).
 */
import type { SessionHeader } from "@pi-sessions/core";

// --- run settings ------------------------------------------------------------------------

/** The run count: `FC_RUNS` when set, else the property's default. */
export function runs(defaultRuns: number): number {
  const n = Number.parseInt(process.env.FC_RUNS ?? "", 10);
  return Number.isFinite(n) && n > 0 ? n : defaultRuns;
}

/** fast-check parameters; `FC_SEED` (and `FC_PATH`) replay a reported failure. */
export function params(numRuns: number): { numRuns: number; seed?: number; path?: string } {
  const seed = process.env.FC_SEED;
  const path = process.env.FC_PATH;
  return {
    numRuns,
    ...(seed ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
  };
}

// --- entry logs --------------------------------------------------------------------------

/** A parent id that never names an entry. */
export const MISSING_ID = "zz";

export const HEADER: SessionHeader = {
  type: "session",
  version: 3,
  id: "01890000-0000-7000-8000-000000000000",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/tmp/p",
};

const USAGE = {
  input: 1,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 3,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
export const PROVIDERS = ["anthropic", "openai", "google"];
export const pick = <T>(xs: readonly T[], n: number): T => xs[n % xs.length] as T;

/** A message of `role`; variant 5 has no content (context substitutes an empty one). */
export function message(role: string, text: string, variant: number, ms: number): unknown {
  const blocks = [{ type: "text", text }];
  const content = variant === 5 ? undefined : variant % 2 === 0 ? text : blocks;
  switch (role) {
    case "assistant":
      return {
        role,
        content: variant === 5 ? undefined : blocks,
        api: "messages",
        provider: pick(PROVIDERS, variant),
        model: `model-${variant % 3}`,
        usage: USAGE,
        stopReason: "stop",
        timestamp: ms,
      };
    case "toolResult":
      return { role, toolCallId: "t1", toolName: "bash", content, isError: false, timestamp: ms };
    default:
      return { role, content, timestamp: ms };
  }
}
