#!/usr/bin/env node
// The installed command: runs the bundled entry point (`pnpm --filter @pi-sessions/cli build`).
// During development, run the sources instead:
//   node --conditions=@pi-sessions/source --import tsx packages/cli/src/main.ts <command>
import * as nodeModule from "node:module";

// The session index uses Node's built-in SQLite, which Node 22 calls experimental in a warning
// on stderr once per process. This process is ours, so that one warning is dropped here (and
// nothing else: every other warning still reaches stderr); a program that embeds the index
// package keeps Node's warnings as they are.
const emitWarning = process.emitWarning;
process.emitWarning = function (warning, ...rest) {
  const type = typeof rest[0] === "string" ? rest[0] : rest[0]?.type;
  const text = typeof warning === "string" ? warning : warning?.message;
  if (type === "ExperimentalWarning" && String(text).startsWith("SQLite is an experimental"))
    return;
  return emitWarning.call(this, warning, ...rest);
};

// Node's on-disk cache of compiled code (in the OS temp directory; Node 22.1 and later): the
// bundle is compiled once, not at every run, about a fifth of a short command's start.
nodeModule.enableCompileCache?.();
// A plain `ls` (the command people run most, and whose warm listing is mostly start-up) runs
// from its own one-file bundle; anything else, `ls` in another form too, runs the program.
const argv = process.argv.slice(2);
if (argv[0] !== "ls" || !(await (await import("../dist/bin/ls/ls-main.js")).lsMain(argv))) {
  await import("../dist/bin/main.js");
}
