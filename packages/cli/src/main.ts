/**
 * The process entry point: runs the CLI on the process arguments and sets the exit code.
 * Sets `process.exitCode` rather than calling `process.exit` so buffered stdout (a pipe) is
 * flushed before the process ends.
 */

import { processIo } from "./io/io.js";
import { silenceSqliteExperimentalWarning } from "./io/sqlite-warning.js";
import { runCli } from "./program.js";

silenceSqliteExperimentalWarning();

// `pi-sessions ls | head`: the reader went away; stop quietly, as Unix tools do, rather than
// dying with an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await runCli(process.argv.slice(2), processIo());
