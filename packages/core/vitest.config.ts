import { defineConfig } from "vitest/config";

// Tests import "@pi-sessions/core" through its package exports; the custom condition makes
// that resolve to src/ so no build step is needed before testing.
export default defineConfig({
  resolve: { conditions: ["@pi-sessions/source"] },
  test: { include: ["test/**/*.test.ts"], testTimeout: 120_000 },
});
