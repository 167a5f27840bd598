import { defineConfig } from "vitest/config";

/**
 * Shared Vitest settings: workspace packages resolve to their TypeScript sources through the
 * "@pi-sessions/source" export condition, so tests need no build step. Vitest runs test files
 * in Vite's server-side environment, which reads its own copy of the conditions.
 */
const conditions = ["@pi-sessions/source"];

export const sharedConfig = defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  // No time budget for tests or hooks (0 turns vitest's timers off): a test must never fail
  // because a loaded 2-core machine is slow, as a beforeAll once did under the 10 s default
  // and CLI tests did under a 120 s one. A test that really hangs is stopped by CI's own limit.
  test: { include: ["test/**/*.test.ts"], testTimeout: 0, hookTimeout: 0 },
});
