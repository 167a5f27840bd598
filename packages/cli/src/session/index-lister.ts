/**
 * `ls`'s rows through core's listings: answered from the session index's rows, or read from
 * the files (`--no-index`, or an index that cannot be opened).
 */

import type { SessionIndex } from "@pi-sessions/index";
import { withIndex } from "../io/index-access.js";
import type { IndexOption } from "../io/index-file.js";
import type { Progress } from "../io/progress.js";
import type { CommandContext } from "../io/runtime.js";
import { directLister, type ListScope, listSessionRows, type SessionLister } from "./ls-rows.js";
import type { ListedRows } from "./summary-rows.js";

/** A lister over `index`; the transcript text is left out (`ls` never shows it). */
export function indexLister(index: SessionIndex): SessionLister {
  return {
    projects: (root, options) => index.listProjects(root, { ...options, withText: false }),
    inDir: (dir, options) => index.listInDir(dir, { ...options, withText: false }),
    dir: (dir, options) => index.listDir(dir, { ...options, withText: false }),
  };
}

/**
 * The rows of `scope` through the index `option` names (or the files), with how many
 * `*.jsonl` files the index's listings met (`undefined` when they were read directly).
 */
export async function listedRows(
  ctx: CommandContext,
  scope: ListScope,
  option: IndexOption,
  progress: Progress,
): Promise<ListedRows> {
  let files: number | undefined;
  const rows = await withIndex(ctx, option, async (index) => {
    const before = index?.filesMet;
    const lister = index === undefined ? directLister : indexLister(index);
    const listed = await listSessionRows(ctx.sessionsRoot, scope, progress, lister);
    if (index !== undefined && before !== undefined) files = index.filesMet - before;
    return listed;
  });
  return { rows, files };
}
