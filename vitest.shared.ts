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
  // Hooks get the same generous budget as tests: a beforeAll that imports the reference
  // package or starts a child process must not fail because a loaded 2-core machine is slow
  // (vitest's 10 s default hook timeout once did). Nothing may depend on machine speed.
  test: { include: ["test/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 },
});
