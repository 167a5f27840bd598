/**
 * Starts pi as a child process that owns the terminal: stdin, stdout and stderr are the
 * launcher's own (so pi's TUI sees the TTY), the environment and arguments pass as they are,
 * and pi's exit code comes back. A swappable pi runs its unbundled `dist/cli.js` under Node's
 * `--import` of our hook (pi-hook.ts), exactly the documented way to start pi by hand; any other
 * runs its own bin unchanged. The child has its own process, so nothing of the launcher (its
 * stream handlers, its modules) is in pi's.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { constants } from "node:os";

/** How to start pi: the script, the Node options before it, and pi's own arguments. */
export interface PiCommandLine {
  /** Node options (`--import <hook>` when swapped), placed before the script. */
  readonly nodeOptions: readonly string[];
  /** The script Node runs: pi's `dist/cli.js`, or its bin when unchanged. */
  readonly script: string;
  /** pi's arguments, verbatim. */
  readonly args: readonly string[];
}

/** The hook module's URL (`@pi-sessions/cli/pi-hook`: the sources under the source condition). */
export function hookUrl(): string {
  return import.meta.resolve("@pi-sessions/cli/pi-hook");
}

/**
 * Signals the launcher passes on to pi while it runs. A terminal sends SIGINT and SIGQUIT to
 * the whole foreground group, pi included, so the launcher only ignores those (pi decides);
 * SIGTERM and SIGHUP may be meant for the launcher alone (`kill`), so pi gets them too.
 */
const IGNORED = ["SIGINT", "SIGQUIT"] as const;
const FORWARDED = ["SIGTERM", "SIGHUP"] as const;

/**
 * Runs pi and resolves its exit code; a pi killed by a signal resolves 128 + the signal's
 * number (what a shell reports), after `onSignalExit` had its chance to die the same way.
 */
export function runPi(
  line: PiCommandLine,
  env: NodeJS.ProcessEnv,
  onSignalExit: (signal: NodeJS.Signals) => void = () => {},
): Promise<number> {
  // Node options of this process (a larger heap, the source condition in development) go on.
  const argv = [...process.execArgv, ...line.nodeOptions, line.script, ...line.args];
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, argv, { stdio: "inherit", env });
    } catch (error) {
      reject(error);
      return;
    }
    const ignore = () => {};
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const s of IGNORED) process.on(s, ignore);
    for (const s of FORWARDED) process.on(s, forward);
    const done = () => {
      for (const s of IGNORED) process.off(s, ignore);
      for (const s of FORWARDED) process.off(s, forward);
    };
    child.on("error", (error) => {
      done();
      reject(error);
    });
    child.on("exit", (code, signal) => {
      done();
      if (signal !== null) {
        onSignalExit(signal);
        resolve(128 + (constants.signals[signal] ?? 0));
      } else resolve(code ?? 1);
    });
  });
}

/** Ends this process by `signal`, as the child ended (the shell then sees the same status). */
export function dieBy(signal: NodeJS.Signals): void {
  process.kill(process.pid, signal);
}
