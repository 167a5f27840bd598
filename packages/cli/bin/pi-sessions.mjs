#!/usr/bin/env node
// The installed command: runs the bundled entry point (`pnpm --filter @pi-sessions/cli build`).
// During development, run the sources instead:
//   node --conditions=@pi-sessions/source --import tsx packages/cli/src/main.ts <command>
import * as nodeModule from "node:module";

// Node's on-disk cache of compiled code (in the OS temp directory; Node 22.1 and later): the
// bundle is compiled once, not at every run, about a fifth of a short command's start.
nodeModule.enableCompileCache?.();
await import("../dist/bin/main.js");
