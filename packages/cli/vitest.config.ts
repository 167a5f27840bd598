import { defineConfig, mergeConfig } from "vitest/config";
import { sharedConfig } from "../../vitest.shared.js";

// Every test file points the session index at a temp cache directory of its own, so no test
// (in-process or through the bin, which inherits the environment) writes to the user's cache.
export default mergeConfig(
  sharedConfig,
  defineConfig({ test: { setupFiles: ["test/helpers/index-env.ts"] } }),
);
