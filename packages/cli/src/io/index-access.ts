/**
 * How commands reach the session index (`index-file.ts` says which file and how trouble is
 * said): opened for a command, with every trouble said in one line on stderr and answered by
 * reading the files directly — the index only makes reading faster, never different.
 */

import { openSessionIndex, type SessionIndex } from "@pi-sessions/index";
import { type IndexOption, indexOptionsFor, sayUnavailable } from "./index-file.js";
import type { CommandContext } from "./runtime.js";

/**
 * Opens the index for a command, or says in one line why not and resolves `undefined` (the
 * caller then reads the files). Notices of the index (a damaged file rebuilt, a failed write)
 * go to stderr as they happen.
 */
export function openIndexFor(ctx: CommandContext, option: IndexOption): SessionIndex | undefined {
  if (option === false) return undefined;
  try {
    return openSessionIndex(indexOptionsFor(ctx, option));
  } catch (error) {
    sayUnavailable(ctx, error);
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
