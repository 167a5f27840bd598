/**
 * Which index file a command uses (`--index FILE`, `--no-index`, `$PI_SESSIONS_INDEX` or the
 * cache directory) and how its trouble is said: one line on stderr each. Apart from opening
 * the index (`index-access.ts`), so that `ls --all`'s quick listing loads only this.
 */

import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { defaultIndexFile, IndexUnavailableError } from "@pi-sessions/index";
import { oneLine, usageError } from "./errors.js";
import type { CommandContext } from "./runtime.js";

/** The `--index` / `--no-index` option as commander parses it. */
export type IndexOption = string | boolean | undefined;

/** Whether `dir` does not exist (a file in its place, or no access, is another trouble). */
function isMissing(dir: string): boolean {
  try {
    statSync(dir);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * The index file a command uses: `--index FILE` (resolved), else the default. A `--index`
 * whose folder does not exist is refused (exit 2): the index would create it, and a typo
 * would leave folders behind and an index nobody looks for. The default location (the cache
 * directory, `$PI_SESSIONS_INDEX`) is created as needed, named on the command line or not.
 */
export function indexFileOf(ctx: CommandContext, option: IndexOption): string {
  if (option === MEMORY) return MEMORY;
  const fallback = defaultIndexFile(ctx.io.env);
  if (typeof option !== "string") return fallback;
  const file = resolve(ctx.io.cwd, option);
  if (file !== resolve(ctx.io.cwd, fallback) && isMissing(dirname(file))) {
    throw usageError(
      `the folder of --index ${option} does not exist (${dirname(file)}); create it, or leave --index out to use the default index`,
    );
  }
  return file;
}

/** SQLite's name for an index held in memory for one run. */
export const MEMORY = ":memory:";

/** The index options of a command: its file, and notices as lines on stderr. */
export function indexOptionsFor(ctx: CommandContext, option: string | true | undefined) {
  const onNotice = (message: string) => ctx.err(`pi-sessions: ${message}`);
  return { file: indexFileOf(ctx, option), onNotice };
}

/**
 * Says in one line that the index cannot be opened and the files are read instead, when
 * `error` is an {@link IndexUnavailableError}; rethrows anything else.
 */
export function sayUnavailable(ctx: CommandContext, error: unknown): void {
  if (!(error instanceof IndexUnavailableError)) throw error;
  ctx.err(`pi-sessions: index unavailable (${oneLine(error)}); reading the session files directly`);
}
