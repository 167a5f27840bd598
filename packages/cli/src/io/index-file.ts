/**
 * Which index file a command uses (`--index FILE`, `--no-index`, `$PI_SESSIONS_INDEX` or the
 * cache directory) and how its trouble is said: one line on stderr each. Apart from opening
 * the index (`index-access.ts`), so that `ls --all`'s quick listing loads only this.
 */

import { dirname, resolve } from "node:path";
import { defaultIndexFile, INDEX_FILE_ENV, IndexUnavailableError } from "@pi-sessions/index";
import { oneLine, usageError } from "./errors.js";
import { isNamedIndexInMissingFolder } from "./named-index-folder.js";
import type { CommandContext } from "./runtime.js";

/** The `--index` / `--no-index` option as commander parses it. */
export type IndexOption = string | boolean | undefined;

/**
 * The index file a command uses: `--index FILE` (resolved), else `$PI_SESSIONS_INDEX`, else
 * the built-in location in the cache directory. A file named by either (`--index` or the
 * variable) whose folder does not exist is refused (exit 2): the index would create it, and a
 * typo would leave folders behind and an index nobody looks for. Only the built-in location's
 * folder is created as needed (named on the command line or not).
 */
export function indexFileOf(ctx: CommandContext, option: IndexOption): string {
  if (option === MEMORY) return MEMORY;
  const fromEnv = ctx.io.env[INDEX_FILE_ENV];
  const named =
    typeof option === "string"
      ? { file: option, by: `--index ${option}`, instead: "leave --index out" }
      : fromEnv !== undefined && fromEnv !== ""
        ? {
            file: fromEnv,
            by: `$${INDEX_FILE_ENV} (${fromEnv})`,
            instead: `unset ${INDEX_FILE_ENV}`,
          }
        : undefined;
  // The built-in location, as if the variable were unset: asked only when needed, and with the
  // environment copied only when the variable is set (a copy of the whole environment was a
  // tenth of a warm listing's start-up).
  const builtIn = () =>
    fromEnv === undefined || fromEnv === ""
      ? defaultIndexFile(ctx.io.env)
      : defaultIndexFile({ ...ctx.io.env, [INDEX_FILE_ENV]: undefined });
  if (named === undefined) return builtIn();
  if (named.file === MEMORY) return MEMORY;
  const file = resolve(ctx.io.cwd, named.file);
  if (isNamedIndexInMissingFolder(file, builtIn, ctx.io.cwd)) {
    throw usageError(
      `the folder of ${named.by} does not exist (${dirname(file)}); create it, or ${named.instead} to use the default index`,
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
