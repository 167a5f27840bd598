/**
 * The `pi-sessions` program: one commander command per module in `src/commands/`, each
 * registered by its `register(program, runtime)`. {@link runCli} parses, runs and turns every
 * failure into a one-line reason on stderr and an exit code (never a stack trace).
 */

import { Command, CommanderError } from "commander";
import { registerCheck } from "./commands/check.js";
import { registerContext } from "./commands/context.js";
import { registerExport } from "./commands/export.js";
import { registerIndex } from "./commands/index-command.js";
import { registerLs } from "./commands/ls.js";
import { registerMigrate } from "./commands/migrate.js";
import { registerSearch } from "./commands/search.js";
import { registerTree } from "./commands/tree.js";
import { registerUsage } from "./commands/usage.js";
import { CliError, ExitCode, oneLine } from "./io/errors.js";
import type { CliIo } from "./io/io.js";
import { CliRuntime, type CommonOptions, withCommonOptions } from "./io/runtime.js";

/** The program's version, printed by `--version`. */
export const VERSION = "0.1.0";

/** Commander's error text as one line without its `error: ` prefix. */
function commanderReason(text: string): string {
  return oneLine(text.replace(/^error: /, ""));
}

/** Builds the program with every command registered; `runtime` collects the exit code. */
export function createProgram(runtime: CliRuntime): Command {
  const program = new Command("pi-sessions")
    .description("Inspect, check, repair and account for pi coding-agent session folders")
    .version(VERSION)
    .configureOutput({
      writeOut: (text) => runtime.io.stdout.write(text),
      writeErr: (text) => runtime.io.stderr.write(text),
      // Commander's own errors (unknown option, missing argument, bad value) get the same
      // one-line form as ours, its "Did you mean …?" hint folded into the line.
      outputError: (text, write) => write(`pi-sessions: ${commanderReason(text)} (see --help)\n`),
    })
    .exitOverride();
  // `--dir` and `--json` work before the command name too (`pi-sessions --dir X ls`).
  withCommonOptions(program);
  runtime.useGlobalOptions(() => program.opts<CommonOptions>());
  registerLs(program, runtime);
  registerTree(program, runtime);
  registerContext(program, runtime);
  registerCheck(program, runtime);
  registerMigrate(program, runtime);
  registerUsage(program, runtime);
  registerExport(program, runtime);
  registerSearch(program, runtime);
  registerIndex(program, runtime);
  return program;
}

/**
 * Runs the CLI on `argv` (without node and the script path) and resolves the exit code:
 * 0 fine, 1 problems found or nothing matched, 2 bad arguments or unreadable input.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const runtime = new CliRuntime(io);
  const program = createProgram(runtime);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return runtime.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with code 0; commander already printed its own one-line reason.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof CliError) {
      io.stderr.write(`pi-sessions: ${oneLine(error)}\n`);
      return Math.max(runtime.exitCode, error.exitCode);
    }
    // Anything else is unreadable input we did not foresee: say what, don't dump a stack.
    io.stderr.write(`pi-sessions: ${oneLine(error)}\n`);
    return ExitCode.usage;
  }
}
