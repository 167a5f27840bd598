/**
 * The entry point of a plain `pi-sessions ls …` (`bin/pi-sessions.mjs` tries it first when the
 * first argument is `ls`). Bundled on its own (`scripts/bundle.mjs`), so that a warm listing
 * loads one file rather than the program's shared chunks: loading those was a fifth of a warm
 * `ls --all` on a thousand sessions.
 */

import { processIo } from "./io/io.js";
import { startProcess } from "./io/process-start.js";
import { quickLs } from "./quick-ls.js";

/**
 * Runs `argv` (without node and the script path) when it is a plain `ls` command line and sets
 * the exit code; `false`, having done nothing, when it is not (the caller runs the program).
 */
export async function lsMain(argv: readonly string[]): Promise<boolean> {
  const run = quickLs(argv);
  if (run === undefined) return false;
  startProcess();
  process.exitCode = await run(processIo());
  return true;
}
