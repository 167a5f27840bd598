#!/usr/bin/env node
// The installed command: runs the bundled entry point (`pnpm --filter @pi-sessions/cli build`).
// During development, run the sources instead:
//   node --conditions=@pi-sessions/source --import tsx packages/cli/src/main.ts <command>
import "../dist/bin/main.js";
