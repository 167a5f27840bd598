/**
 * The process entry point: runs the CLI on the process arguments and sets the exit code.
 * Sets `process.exitCode` rather than calling `process.exit` so buffered stdout (a pipe) is
 * flushed before the process ends.
 */

import { processIo } from "./io.js";
import { runCli } from "./program.js";

process.exitCode = await runCli(process.argv.slice(2), processIo());
