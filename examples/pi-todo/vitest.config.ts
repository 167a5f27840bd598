import { mergeConfig } from "vitest/config";
import { sharedConfig } from "../../vitest.shared.js";

// pi's runtime runs over our SessionManager when the testkit's hook is loaded before pi:
// test/setup.ts imports it. An outside project needs only `test: { setupFiles: [...] }`.
export default mergeConfig(sharedConfig, { test: { setupFiles: ["./test/setup.ts"] } });
