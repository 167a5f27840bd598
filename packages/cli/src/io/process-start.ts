/**
 * What the command's process sets up before it runs a command, whichever entry point runs it
 * (`main.ts`, or `ls-main.ts` for a plain `ls`).
 */

import { silenceSqliteExperimentalWarning } from "./sqlite-warning.js";

/**
 * Drops Node's one SQLite warning (this process is ours), and stops quietly when the reader of
 * stdout or stderr went away (`pi-sessions ls | head`), as Unix tools do, rather than dying
 * with an EPIPE stack trace.
 */
export function startProcess(): void {
  silenceSqliteExperimentalWarning();
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}
