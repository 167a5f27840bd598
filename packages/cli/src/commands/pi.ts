/**
 * `pi-sessions pi [--pi PATH] [pi's arguments…]` — runs the installed pi on our engine: its
 * unbundled entry with every import of its session manager resolved to ours (SPEC L1), or, for
 * a pi version the test suite does not run, pi unchanged after one line saying so (L2). Every
 * argument after `pi` (but a leading `--pi PATH`) is pi's, `--help` and `--version` included,
 * so the program hands them over before commander parses anything. pi owns the terminal and
 * the process's exit code.
 */

import { existsSync } from "node:fs";
import type { Command } from "commander";
import { ExitCode, oneLine } from "../io/errors.js";
import type { CliIo } from "../io/io.js";
import type { CliRuntime } from "../io/runtime.js";
import { findPi, PI_PATH_ENV, PiNotFoundError } from "../pi-launcher/pi-package.js";
import { isNodeNewEnough, oldNodeLine, swapRefusal } from "../pi-launcher/pi-support.js";
import { dieBy, hookUrl, type PiCommandLine, runPi } from "../pi-launcher/run-pi.js";

/**
 * The launcher's own option, `--pi PATH` or `--pi=PATH`, when it leads; and pi's arguments. A
 * `--pi` without its path gives `pi: ""` (refused by {@link runPiCommand}).
 */
export function splitPiArgs(args: readonly string[]): { pi?: string; rest: string[] } {
  const [first, second] = args;
  if (first === "--pi") return { pi: second ?? "", rest: args.slice(2) };
  if (first?.startsWith("--pi=")) return { pi: first.slice(5), rest: args.slice(1) };
  return { rest: [...args] };
}

/**
 * Runs `pi-sessions pi <args>` (the arguments after `pi`) and resolves pi's exit code, or 2 with
 * one line on stderr when there is no pi to run or this Node is too old for it. pi inherits
 * this process's own stdin, stdout and stderr (the TUI needs the terminal), whatever `io` holds.
 */
export async function runPiCommand(args: readonly string[], io: CliIo): Promise<number> {
  const { pi: named, rest } = splitPiArgs(args);
  // `--pi` last, or followed by an option: handing it to pi would make pi refuse an option of
  // ours, or take the next option as pi's path and give the rest to pi one short.
  if (named === "" || named?.startsWith("-")) {
    io.stderr.write("pi-sessions: --pi needs a path (pi's bin or package directory)\n");
    return ExitCode.usage;
  }
  if (!isNodeNewEnough(process.versions.node)) {
    io.stderr.write(`${oldNodeLine(process.versions.node, process.execPath)}\n`);
    return ExitCode.usage;
  }
  let line: PiCommandLine;
  try {
    const pi = findPi({ option: named, env: io.env, cwd: io.cwd });
    const refusal = swapRefusal(pi, existsSync);
    if (refusal !== undefined) io.stderr.write(`${refusal}\n`);
    line =
      refusal === undefined
        ? { nodeOptions: ["--import", hookUrl()], script: pi.cli, args: rest }
        : { nodeOptions: [], script: pi.bin, args: rest };
  } catch (error) {
    if (!(error instanceof PiNotFoundError)) throw error;
    io.stderr.write(`pi-sessions: ${oneLine(error)}\n`);
    return ExitCode.usage;
  }
  return runPi(line, io.env, dieBy);
}

/**
 * Registers `pi` for help and suggestions; {@link runPiCommand} runs it (the program hands the
 * arguments over before parsing, so commander never sees pi's options).
 */
export function registerPi(program: Command, runtime: CliRuntime): void {
  program
    .command("pi")
    .description(
      `run the installed pi on pi-sessions' engine; every argument goes to pi (a leading --pi PATH, or ${PI_PATH_ENV}, names pi)`,
    )
    .argument("[args...]", "pi's own arguments")
    .allowUnknownOption()
    .action(async (args: string[]) => {
      runtime.exit((await runPiCommand(args, runtime.io)) as 0 | 1 | 2);
    });
}
