/**
 * How commands reach the session index: `--index FILE` or the default file (from the CLI's
 * environment, so tests can point it at a temp directory), with every trouble said in one line
 * on stderr and answered by reading the files directly — the index only makes reading faster,
 * never different.
 */

import { resolve } from "node:path";
import {
  defaultIndexFile,
  IndexUnavailableError,
  openSessionIndex,
  type SessionIndex,
} from "@pi-sessions/index";
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

/**
 * Opens the index for a command, or says in one line why not and resolves `undefined` (the
 * caller then reads the files). Notices of the index (a damaged file rebuilt, a failed write)
 * go to stderr as they happen.
 */
export function openIndexFor(ctx: CommandContext, option: IndexOption): SessionIndex | undefined {
  if (option === false) return undefined;
  const file = indexFileOf(ctx, option);
  try {
    return openSessionIndex({ file, onNotice: (message) => ctx.err(`pi-sessions: ${message}`) });
  } catch (error) {
    if (!(error instanceof IndexUnavailableError)) throw error;
    ctx.err(
      `pi-sessions: index unavailable (${oneLine(error)}); reading the session files directly`,
    );
    return undefined;
  }
}

/** Runs `use` with an open index (or `undefined`) and closes it afterwards. */
export async function withIndex<T>(
  ctx: CommandContext,
  option: IndexOption,
  use: (index: SessionIndex | undefined) => Promise<T>,
): Promise<T> {
  const index = openIndexFor(ctx, option);
  try {
    return await use(index);
  } finally {
    index?.close();
  }
}
