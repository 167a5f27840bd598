import { defineConfig, mergeConfig } from "vitest/config";
import { sharedConfig } from "../../vitest.shared.js";

// Core's own tests open every current session file as columns (bodies decoded when read), not
// only those of 8 MiB and more: the whole suite then checks that load against the rules, and
// read-session's tests check that both loads give the same session.
export default mergeConfig(
  sharedConfig,
  defineConfig({ test: { env: { PI_SESSIONS_COLUMNS_FROM_BYTES: "0" } } }),
);
