/**
 * What every command shares: the process surface, the options every command takes (`--dir`,
 * `--json`), and the exit code the program ends with.
 */

import { resolve } from "node:path";
import { getAgentDir, getSessionsRoot } from "@pi-sessions/core/internal";
import type { Command } from "commander";
import { usageError } from "./errors.js";
import type { CliIo } from "./io.js";
import { type Colors, colorsFor, writeJson, writeLine } from "./output.js";
import { isDirectory } from "./session-files.js";

/** The options {@link withCommonOptions} adds to every command. */
export interface CommonOptions {
  /** The sessions directory, overriding `PI_CODING_AGENT_DIR`. */
  dir?: string;
  /** Print machine-readable JSON on stdout instead of text. */
  json?: boolean;
}

/** Adds `--dir` and `--json` to a command; every command calls this so they read the same. */
export function withCommonOptions(command: Command): Command {
  return command
    .option(
      "--dir <dir>",
      "sessions directory (default: $PI_CODING_AGENT_DIR/sessions, else ~/.pi/agent/sessions)",
    )
    .option("--json", "print JSON on stdout for scripts");
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

/** Per-invocation helpers built from a command's parsed common options. */
export interface CommandContext {
  readonly io: CliIo;
  /** `--json` was given. */
  readonly json: boolean;
  /** Colours for stdout (identity functions unless stdout is a terminal). */
  readonly colors: Colors;
  /** The sessions root ({@link sessionsRootOf}). */
  readonly sessionsRoot: string;
  /** Whether `--dir` chose the root, for messages that explain where we looked. */
  readonly dirGiven: boolean;
  /** Writes a line to stdout. */
  out(line?: string): void;
  /** Writes a line to stderr (notes and warnings; never data). */
  err(line?: string): void;
  /** Writes a value as JSON to stdout. */
  printJson(value: unknown): void;
}

/**
 * The state of one CLI run: the io, and the exit code, which only ever rises (a later success
 * cannot hide an earlier problem).
 */
export class CliRuntime {
  readonly io: CliIo;
  private code = 0;
  /** Options given before the command name (`pi-sessions --dir X ls`). */
  private globals: () => CommonOptions = () => ({});

  constructor(io: CliIo) {
    this.io = io;
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
    if (options.dir !== undefined && options.dir !== "" && !isDirectory(sessionsRoot)) {
      throw usageError(`--dir ${options.dir}: no such directory`);
    }
    return {
      io,
      json: options.json === true,
      colors: colorsFor(io),
      sessionsRoot,
      dirGiven: options.dir !== undefined,
      out: (line) => writeLine(io.stdout, line),
      err: (line) => writeLine(io.stderr, line),
      printJson: (value) => writeJson(io, value),
    };
  }
}
