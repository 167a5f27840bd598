/**
 * The `pi-sessions` program: one commander command per module in `src/commands/`, each
 * registered by its `register(program, runtime)`. {@link runCli} parses, runs and turns every
 * failure into a one-line reason on stderr and an exit code (never a stack trace).
 */

import type { Command } from "commander";
import { CliError, ExitCode, oneLine } from "./io/errors.js";
import { failureCode } from "./io/failure.js";
import type { CliIo } from "./io/io.js";
import { CliRuntime, type CommonOptions, withCommonOptions } from "./io/runtime.js";
import { VERSION } from "./version.js";

export { VERSION } from "./version.js";

/** Commander's error text as one line without its `error: ` prefix. */
function commanderReason(text: string): string {
  return oneLine(text.replace(/^error: /, ""));
}

/** How a command module adds its command to the program. */
type Register = (program: Command, runtime: CliRuntime) => void;

/**
 * Every command's module, in the order help lists them, loaded on demand: a command line that
 * names one loads only that module's imports (`ls` never loads the exporters' renderers), which
 * is most of what a short command costs in a fresh process.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  ls: async () => (await import("./commands/ls.js")).registerLs,
  tree: async () => (await import("./commands/tree.js")).registerTree,
  context: async () => (await import("./commands/context.js")).registerContext,
  check: async () => (await import("./commands/check.js")).registerCheck,
  migrate: async () => (await import("./commands/migrate.js")).registerMigrate,
  usage: async () => (await import("./commands/usage.js")).registerUsage,
  export: async () => (await import("./commands/export.js")).registerExport,
  redact: async () => (await import("./commands/redact.js")).registerRedact,
  search: async () => (await import("./commands/search.js")).registerSearch,
  index: async () => (await import("./commands/index-command.js")).registerIndex,
  sync: async () => (await import("./commands/sync.js")).registerSync,
  pi: async () => (await import("./commands/pi.js")).registerPi,
};

/**
 * The command `argv` names: its first word that is not an option or the value of the
 * program-level `--dir`; `undefined` when there is none or it is not a command (help, a typo:
 * those need every command registered).
 */
function namedCommand(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") return undefined;
    if (arg === "--dir") i++;
    else if (!arg.startsWith("-")) return Object.hasOwn(COMMANDS, arg) ? arg : undefined;
  }
  return undefined;
}

/**
 * Builds the program with the command `argv` names registered (every command when it names
 * none, for help and suggestions); `runtime` collects the exit code.
 */
export async function createProgram(
  runtime: CliRuntime,
  argv: readonly string[] = [],
): Promise<Command> {
  // Loaded here, not with this module: a quick command never needs it.
  const { Command } = await import("commander");
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
  const named = namedCommand(argv);
  const names = named === undefined ? Object.keys(COMMANDS) : [named];
  const registers = await Promise.all(
    names.map((name) => (COMMANDS[name] as () => Promise<Register>)()),
  );
  for (const register of registers) register(program, runtime);
  return program;
}

/**
 * Runs the CLI on `argv` (without node and the script path) and resolves the exit code:
 * 0 fine, 1 problems found or nothing matched, 2 bad arguments or unreadable input. `pi` runs
 * pi in a child process on this process's own terminal and resolves pi's exit code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  // `pi` hands every later argument to pi, its `--help` too: commander must not parse them.
  if (argv[0] === "pi") return (await import("./commands/pi.js")).runPiCommand(argv.slice(1), io);
  // A plain `ls` runs without commander (`quick-ls.ts`): a warm listing costs about what a
  // process's start-up costs, so commander's load was a third of it.
  if (namedCommand(argv) === "ls") {
    const quick = (await import("./quick-ls.js")).quickLs(argv);
    if (quick !== undefined) return quick(io);
  }
  const runtime = new CliRuntime(io);
  try {
    const program = await createProgram(runtime, argv);
    await program.parseAsync([...argv], { from: "user" });
    return runtime.exitCode;
  } catch (error) {
    if (
      !(error instanceof CliError) &&
      error instanceof (await import("commander")).CommanderError
    ) {
      // Help and version end with code 0; commander already printed its own one-line reason.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    return failureCode(runtime, error);
  }
}
