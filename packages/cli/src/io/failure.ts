/**
 * How a failed command ends: a one-line reason on stderr and an exit code, never a stack trace
 * (commander's own errors aside, which `program.ts` answers before this).
 */

import { CliError, ExitCode, oneLine } from "./errors.js";
import type { CliRuntime } from "./runtime.js";

/** Says why the command failed (through the terminal-safe stream) and gives its exit code. */
export function failureCode(runtime: CliRuntime, error: unknown): number {
  // Through the terminal-safe stream: a reason may echo an argument or a file's content.
  runtime.io.stderr.writeLine(`pi-sessions: ${oneLine(error)}`);
  // Anything not ours is unreadable input we did not foresee: said, not dumped, exit 2.
  return error instanceof CliError ? Math.max(runtime.exitCode, error.exitCode) : ExitCode.usage;
}
