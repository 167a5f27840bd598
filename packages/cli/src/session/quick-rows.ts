/**
 * `ls --all`'s rows from the index's stored answers, checked by one stat per file, in the order
 * core's listings give them (`quickListAll`): a warm listing loads neither the index's per-file
 * step nor the session reader.
 */

import { newestFirst } from "@pi-sessions/core/internal";
import { quickListAll } from "@pi-sessions/index";
import { indexOptionsFor, sayUnavailable } from "../io/index-file.js";
import type { Progress } from "../io/progress.js";
import type { CommandContext } from "../io/runtime.js";
import {
  type ListedRows,
  type PathSummary,
  regularRowOfSummary,
  type SessionRow,
} from "./summary-rows.js";

/**
 * The rows of every session under the root through the index `option` names, with how many
 * `*.jsonl` files it met. `false` when the index cannot be opened (said on stderr: the caller
 * reads the files); `undefined` when it failed while listing (the caller runs the listings
 * through it, which say what happened).
 */
export async function quickRowsOfAll(
  ctx: CommandContext,
  option: string | true | undefined,
  progress: Progress,
): Promise<ListedRows | false | undefined> {
  let listed: Awaited<ReturnType<typeof quickListAll>>;
  try {
    const onProgress = (done: number, total: number) => progress.update(done, total);
    listed = await quickListAll(ctx.sessionsRoot, { ...indexOptionsFor(ctx, option), onProgress });
  } catch (error) {
    sayUnavailable(ctx, error);
    return false;
  } finally {
    progress.done();
  }
  if (listed === undefined) return undefined;
  const all = [...listed.nested, ...listed.flat].sort((a, b) =>
    newestFirst(a.modified ?? Number.NaN, b.modified ?? Number.NaN),
  );
  return { rows: await rowsOfSummaries(all), files: listed.files };
}

/**
 * The rows of summaries, in their order: a regular file's from its summary, an irregular
 * one's through `session-rows.ts` (a full load of the file), loaded only when one is listed.
 */
async function rowsOfSummaries(summaries: readonly PathSummary[]): Promise<SessionRow[]> {
  const rows = summaries.map(regularRowOfSummary);
  if (!rows.includes(undefined)) return rows as SessionRow[];
  const { rowOfSummary } = await import("./ls-rows.js");
  return rows.map((row, i) => row ?? rowOfSummary(summaries[i] as PathSummary));
}
