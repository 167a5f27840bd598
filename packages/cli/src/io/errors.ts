/** Exit codes of every command: one meaning each, the same across commands. */
export const ExitCode = {
  /** Everything fine. */
  ok: 0,
  /** `check` found problems, or nothing matched the query. */
  problems: 1,
  /** Bad arguments or unreadable input. */
  usage: 2,
} as const;

/** One of the {@link ExitCode} values. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * An error that ends the command with a one-line reason on stderr and a given exit code.
 * Thrown by commands and shared helpers; the program turns it into output, never a stack.
 */
export class CliError extends Error {
  /** The process exit code this failure maps to. */
  readonly exitCode: ExitCodeValue;

  constructor(message: string, exitCode: ExitCodeValue = ExitCode.usage) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** A bad argument or unreadable input (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(message, ExitCode.usage);
}

/** Nothing matched (exit 1). */
export function notFoundError(message: string): CliError {
  return new CliError(message, ExitCode.problems);
}

/** The message of anything thrown, on one line (a reason on stderr must not spill over lines). */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, " ").trim();
}
