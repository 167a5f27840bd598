/**
 * `ls --all`'s rows from the index's stored answers, checked by one stat per file, in the order
 * core's listings give them (`quickListAll`): a warm listing loads neither the index's per-file
 * step nor the session reader, and makes no full row unless `--json` asks for them.
 */

import { newestFirst } from "@pi-sessions/core/internal";
import { quickListAll } from "@pi-sessions/index";
import { indexOptionsFor, sayUnavailable } from "../io/index-file.js";
import type { Progress } from "../io/progress.js";
import type { CommandContext } from "../io/runtime.js";
import { type PathSummary, regularRowOfSummary, type SessionRow } from "./summary-rows.js";
import { type Listed, tableRowOf, tableRowOfSummary } from "./table-rows.js";

/**
 * The sessions under the root through the index `option` names, with how many `*.jsonl` files
 * it met. `false` when the index cannot be opened (said on stderr: the caller reads the
 * files); `undefined` when it failed while listing (the caller runs the listings through it,
 * which say what happened).
 */
export async function quickRowsOfAll(
  ctx: CommandContext,
  option: string | true | undefined,
  progress: Progress,
): Promise<Listed | false | undefined> {
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
  return {
    count: all.length,
    files: listed.files,
    clean: listed.clean,
    table: () => rowsOf(all, tableRowOfSummary, tableRowOf),
    rows: () => rowsOf(all, regularRowOfSummary, (row) => row),
  };
}

/**
 * The rows of summaries, in their order: a regular file's from its summary (`regular`), an
 * irregular one's from its full row (`session-rows.ts`' `rowOfSummary`, a full load of the
 * file), loaded only when one is listed.
 */
async function rowsOf<Row>(
  summaries: readonly PathSummary[],
  regular: (summary: PathSummary) => Row | undefined,
  full: (row: SessionRow) => Row,
): Promise<Row[]> {
  const rows = summaries.map(regular);
  if (!rows.includes(undefined)) return rows as Row[];
  const { rowOfSummary } = await import("./ls-fallback.js");
  return rows.map((row, i) => row ?? full(rowOfSummary(summaries[i] as PathSummary)));
}
