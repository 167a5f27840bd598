/**
 * Which index file a command uses (`--index FILE`, `--no-index`, `$PI_SESSIONS_INDEX` or the
 * cache directory) and how its trouble is said: one line on stderr each. Apart from opening
 * the index (`index-access.ts`), so that `ls --all`'s quick listing loads only this.
 */

import { resolve } from "node:path";
import { defaultIndexFile, IndexUnavailableError } from "@pi-sessions/index";
import { oneLine } from "./errors.js";
import type { CommandContext } from "./runtime.js";

/** The `--index` / `--no-index` option as commander parses it. */
export type IndexOption = string | boolean | undefined;

/** The index file a command uses: `--index FILE` (resolved), else the default. */
export function indexFileOf(ctx: CommandContext, option: IndexOption): string {
  if (option === MEMORY) return MEMORY;
  return typeof option === "string" ? resolve(ctx.io.cwd, option) : defaultIndexFile(ctx.io.env);
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
