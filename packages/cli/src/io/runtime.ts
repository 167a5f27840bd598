/**
 * What every command shares: the process surface, the options every command takes (`--dir`,
 * `--json`), and the exit code the program ends with.
 */

import { opendirSync } from "node:fs";
import { resolve } from "node:path";
import { fsReason, getAgentDir, getSessionsRoot } from "@pi-sessions/core/internal";
import type { Command } from "commander";
import { type ExitCodeValue, usageError } from "./errors.js";
import { isDirectory } from "./find-session-files.js";
import type { CliIo } from "./io.js";
import { lineLimitOf } from "./line-limit.js";
import { addOptions, type OptionSpec, refuseBothForms } from "./option-table.js";
import { colorEnabled, writeJson } from "./output.js";
import { type Colors, Terminal, type TerminalIo } from "./terminal-output.js";
import { terminalSafeText } from "./terminal-text.js";

/** The options {@link withCommonOptions} adds to every command. */
export interface CommonOptions {
  /** The sessions directory, overriding `PI_CODING_AGENT_DIR`. */
  dir?: string;
  /** Print machine-readable JSON on stdout instead of text. */
  json?: boolean;
}

/** `--dir` and `--json`, as data (`option-table.ts`): the program's and every command's. */
export const COMMON_OPTIONS: readonly OptionSpec[] = [
  {
    flags: "--dir <dir>",
    description:
      "sessions directory (default: $PI_CODING_AGENT_DIR/sessions, else ~/.pi/agent/sessions)",
  },
  { flags: "--json", description: "print JSON on stdout for scripts" },
];

/**
 * Adds `--dir` and `--json` to a command, and refuses `--index FILE` with `--no-index` where
 * it has them; every command calls this so they read the same.
 */
export function withCommonOptions(command: Command): Command {
  return addOptions(refuseBothForms(command, "index"), COMMON_OPTIONS);
}

/**
 * The sessions root a command reads (SPEC §1.1): `--dir` resolved against the working
 * directory, else `<agentDir>/sessions` where the agent dir is `$PI_CODING_AGENT_DIR` or
 * `~/.pi/agent`. Never creates it: read paths must not write.
 */
export function sessionsRootOf(io: CliIo, dir: string | undefined): string {
  if (dir !== undefined && dir !== "") return resolve(io.cwd, dir);
  return resolve(io.cwd, getSessionsRoot(getAgentDir(io.env)));
}

/** Why a directory cannot be listed (opened for reading), or undefined when it can. */
function unlistable(dir: string): string | undefined {
  try {
    opendirSync(dir).closeSync();
    return undefined;
  } catch (error) {
    return fsReason(error);
  }
}

/**
 * Per-invocation helpers built from a command's parsed common options. Human text goes out
 * through `out`, `outLines` and `err` (or `io`'s streams), which make every line safe for a
 * terminal; `printJson` and `writeData` keep data exact.
 */
export interface CommandContext {
  /** The process surface, its streams terminal-safe. */
  readonly io: TerminalIo;
  /** `--json` was given. */
  readonly json: boolean;
  /** Colours for stdout (identity functions unless stdout is a terminal). */
  readonly colors: Colors;
  /** The sessions root ({@link sessionsRootOf}). */
  readonly sessionsRoot: string;
  /** Whether `--dir` chose the root, for messages that explain where we looked. */
  readonly dirGiven: boolean;
  /** How read-only commands load a session: the line bound (`PI_SESSIONS_MAX_LINE_BYTES`). */
  readonly readOptions: { readonly maxLineBytes: number };
  /** Writes a line to stdout (made terminal-safe: a newline inside it shows as `␊`). */
  out(line?: string): void;
  /** Writes lines to stdout in one write, each as `out` would. */
  outLines(lines: readonly string[]): void;
  /** Writes a line to stderr (notes and warnings; never data), terminal-safe. */
  err(line?: string): void;
  /** Writes a value as JSON to stdout: exact, its strings escaped where a terminal would act. */
  printJson(value: unknown): void;
  /**
   * Writes data (an export's content, a redacted session) to stdout: exactly as it is into a
   * pipe or a file; on a terminal made safe as multi-line text (`terminalSafeText`: newlines
   * and tabs stay). Markdown and HTML renderers make their text safe themselves, and JSON Lines
   * exports go through `jsonForTerminal`, so those are safe either way. Bytes (a redacted
   * session that keeps bytes which are not UTF-8) go out as they are, or to a terminal as text.
   */
  writeData(content: string | Uint8Array): void;
  /** Raises the exit code to at least `code` (a problem said on stderr, the command goes on). */
  exit(code: ExitCodeValue): void;
}

/**
 * The state of one CLI run: the io, and the exit code, which only ever rises (a later success
 * cannot hide an earlier problem).
 */
export class CliRuntime {
  /** The process surface with terminal-safe streams: all text output goes through these. */
  readonly io: TerminalIo;
  /** The streams as given, for exact data (JSON, exports) only. */
  private readonly rawIo: CliIo;
  private readonly terminal: Terminal;
  private code = 0;
  /** Options given before the command name (`pi-sessions --dir X ls`). */
  private globals: () => CommonOptions = () => ({});

  constructor(io: CliIo) {
    this.rawIo = io;
    this.terminal = new Terminal(colorEnabled(io.stdout, io.env));
    this.io = this.terminal.io(io);
  }

  /** Where to read the program-level `--dir`/`--json` from (set by `createProgram`). */
  useGlobalOptions(read: () => CommonOptions): void {
    this.globals = read;
  }

  /** The exit code so far. */
  get exitCode(): number {
    return this.code;
  }

  /** Raises the exit code to at least `code`. */
  exit(code: number): void {
    if (code > this.code) this.code = code;
  }

  /**
   * The {@link CommandContext} of one command invocation. A `--dir` that is not a directory is
   * a bad argument (exit 2, most likely a typo); a default root that does not exist yet is
   * not (a fresh machine simply has no sessions, which the commands report as such).
   */
  context(commandOptions: CommonOptions): CommandContext {
    const io = this.io;
    // Options after the command name win over the same options before it.
    const global = this.globals();
    const options: CommonOptions = {
      dir: commandOptions.dir ?? global.dir,
      json: commandOptions.json ?? global.json,
    };
    const sessionsRoot = sessionsRootOf(io, options.dir);
    if (options.dir !== undefined && options.dir !== "") {
      if (!isDirectory(sessionsRoot)) throw usageError(`--dir ${options.dir}: no such directory`);
      // Unreadable is not empty: a --dir we cannot list is exit 2, never "no sessions".
      const problem = unlistable(sessionsRoot);
      if (problem !== undefined) throw usageError(`cannot read --dir ${options.dir}: ${problem}`);
    }
    return {
      io,
      json: options.json === true,
      colors: this.terminal.colors,
      sessionsRoot,
      dirGiven: options.dir !== undefined,
      readOptions: { maxLineBytes: lineLimitOf(io.env) },
      out: (line = "") => io.stdout.writeLine(line),
      outLines: (lines) => io.stdout.writeLines(lines),
      err: (line = "") => io.stderr.writeLine(line),
      printJson: (value) => writeJson(this.rawIo, value),
      writeData: (content) => {
        const stdout = this.rawIo.stdout;
        if (stdout.isTTY !== true) stdout.write(content);
        else stdout.write(terminalSafeText(Buffer.from(content).toString("utf8")));
      },
      exit: (code) => this.exit(code),
    };
  }
}
