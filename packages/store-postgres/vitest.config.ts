import { defineConfig, mergeConfig } from "vitest/config";
import { sharedConfig } from "../../vitest.shared.js";

/** The shared settings, plus one real PostgreSQL server started for the whole run. */
export default mergeConfig(
  sharedConfig,
  defineConfig({ test: { globalSetup: ["./test/support/global-setup.ts"] } }),
);
