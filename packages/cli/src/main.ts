/**
 * The process entry point: runs the CLI on the process arguments and sets the exit code.
 * Sets `process.exitCode` rather than calling `process.exit` so buffered stdout (a pipe) is
 * flushed before the process ends. `--version` alone is answered before the program (and
 * with it every command's module) is loaded: it printed one line after ~120 ms of loading.
 */

import { processIo } from "./io/io.js";
import { startProcess } from "./io/process-start.js";
import { VERSION } from "./version.js";

startProcess();

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
  // What commander prints for it (through the terminal-safe stream: the version is ours).
  process.stdout.write(`${VERSION}\n`);
} else {
  const { runCli } = await import("./program.js");
  process.exitCode = await runCli(argv, processIo());
}
