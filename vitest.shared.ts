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
  test: { include: ["test/**/*.test.ts"], testTimeout: 120_000 },
});
