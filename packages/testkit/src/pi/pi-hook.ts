/**
 * `@pi-sessions/testkit/pi-hook`: load this before pi to run pi's runtime over our
 * SessionManager in tests (`startPiSession({ manager: "ours" })`). It registers Node module
 * hooks (see manager-hook-loader.ts); pi must not have been imported yet.
 *
 *   node --import @pi-sessions/testkit/pi-hook --test my-extension.test.js
 *   // vitest.config.ts: test: { setupFiles: ["@pi-sessions/testkit/pi-hook"] }
 *
 * Loading it twice registers the hooks once.
 */
import { register } from "node:module";

const REGISTERED = Symbol.for("@pi-sessions/testkit:pi-hook-registered");
const flags = globalThis as { [REGISTERED]?: boolean };
if (!flags[REGISTERED]) {
  flags[REGISTERED] = true;
  // The loader sits beside this file, compiled (.js) or, in this repository, as source (.ts).
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  register(`./manager-hook-loader${ext}`, import.meta.url);
}
