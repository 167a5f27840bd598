/**
 * Runs the REAL `pi-sessions` entry point as a child process, the way a user's shell does:
 * `node --conditions=@pi-sessions/source --import tsx src/main.ts …` by default (no build
 * needed), or the built `bin/pi-sessions.mjs` when `PI_SESSIONS_CLI_DIST=1` (the `test:dist`
 * script). Nothing is mocked: arguments, environment, exit code and both streams are real.
 */

import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package directory (packages/cli). */
export const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** What one run produced. */
export interface BinResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The child was killed by `killAfterMs`. */
  readonly timedOut?: boolean;
}

/** Options of {@link runBin}. */
export interface RunBinOptions {
  /** Extra environment (merged over a clean copy of the test's own). */
  env?: NodeJS.ProcessEnv;
  /** Working directory of the child; defaults to the package directory. */
  cwd?: string;
  /** Text written to the child's stdin (closed right after). */
  input?: string;
  /** Run the child as this user (see `unprivileged()` in test-utils): permission tests. */
  user?: { uid?: number; gid?: number };
  /**
   * A hang guard, not a speed check: kill the child after this long (then `code` is null and
   * `timedOut` true). Only for tests of inputs that once made the command never end.
   */
  killAfterMs?: number;
}

/** The command line that starts the CLI: the built bin, or the TS sources through tsx. */
export function binCommand(): string[] {
  if (process.env.PI_SESSIONS_CLI_DIST === "1") return [join(CLI_DIR, "bin", "pi-sessions.mjs")];
  // tsx resolved here, not by the child: the child may run in a directory outside the repo.
  const tsx = import.meta.resolve("tsx");
  return ["--conditions=@pi-sessions/source", "--import", tsx, join(CLI_DIR, "src", "main.ts")];
}

/**
 * Runs `pi-sessions <args>` and resolves its exit code and output. Colour variables are
 * cleared so output is plain unless a test sets them; `HOME` stays the caller's unless given,
 * so tests that rely on the default directory must set `PI_CODING_AGENT_DIR` or `HOME`.
 */
export function runBin(args: readonly string[], options: RunBinOptions = {}): Promise<BinResult> {
  // Colour variables are removed rather than emptied: Node 22 warns on stderr when both
  // NO_COLOR and FORCE_COLOR are defined, even when empty.
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  delete env.PI_CODING_AGENT_DIR;
  Object.assign(env, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...binCommand(), ...args], {
      cwd: options.cwd ?? CLI_DIR,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      ...options.user,
    });
    let timedOut = false;
    const guard =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill("SIGKILL");
          }, options.killAfterMs);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (guard !== undefined) clearTimeout(guard);
      resolve(timedOut ? { code, stdout, stderr, timedOut } : { code, stdout, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}
