/**
 * Preloaded (`--import`) into both pi-runtime child processes, before pi is imported:
 * refuses an old Node, stops the wall clock (step-clock.ts) at the start time the test
 * passed, and registers the resolve hook that sends pi's session-manager module to the shim.
 * Both sides load this same file; only PI_RUNTIME_SIDE decides which class the shim uses.
 */
import { register } from "node:module";
import { clockStart } from "./child-env.js";
import { assertNodeForPi } from "./node-version.js";
import { installStepClock } from "./step-clock.js";

assertNodeForPi();
installStepClock(clockStart());
// Hooks run in Node's loader thread; tsx (imported before this file) compiles this one there.
register("./redirect-hooks.ts", import.meta.url);
