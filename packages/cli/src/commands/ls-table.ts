/**
 * `ls`'s table: a header line, then a line per session (and its cwd under it with `--all`),
 * and the summary line. It shows `TableRow`s (`table-rows.ts`), which a listing from the index
 * makes straight from the stored summaries.
 */

import { formatBytes, formatDateMs, pad, truncate } from "../io/output.js";
import type { CommandContext } from "../io/runtime.js";
import { MIN_SHORT_ID } from "../session/short-ids.js";
import type { TableRow } from "../session/table-rows.js";

/** Width of the text column when stdout is not a terminal (a pipe has no width). */
const DEFAULT_TEXT_WIDTH = 60;

/**
 * Prints the table of `rows`, each row's id shown as `ids` gives it (same order), its cwd
 * under it when `all`: written at once (ten thousand sessions are twenty thousand lines: one
 * write each would cost more than the listing).
 */
export function printTable(
  ctx: CommandContext,
  rows: readonly TableRow[],
  ids: readonly string[],
  all: boolean,
): void {
  const c = ctx.colors;
  const columns = ctx.io.stdout.columns;
  let idWidth = MIN_SHORT_ID;
  for (const id of ids) if (id.length > idWidth) idWidth = id.length;
  const fixed = 16 + 2 + 7 + 2 + 8 + 2 + 8 + 2 + idWidth + 2;
  const textWidth = columns !== undefined ? Math.max(20, columns - fixed - 1) : DEFAULT_TEXT_WIDTH;
  const lines = [
    c.bold(
      `${pad("MODIFIED", 16)}  ${pad("ENTRIES", 7, true)}  ${pad("BRANCHES", 8, true)}  ${pad("SIZE", 8, true)}  ${pad("ID", idWidth)}  NAME / FIRST MESSAGE`,
    ),
  ];
  const indent = " ".repeat(fixed);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as TableRow;
    const text =
      row.name !== undefined
        ? c.cyan(truncate(row.name, textWidth))
        : truncate(row.firstMessage, textWidth);
    const warn =
      row.problems > 0
        ? c.yellow(` [${row.problems} problem${row.problems === 1 ? "" : "s"}]`)
        : "";
    lines.push(
      `${formatDateMs(row.modified)}  ${String(row.entries).padStart(7)}  ${String(row.branches).padStart(8)}  ${formatBytes(row.size).padStart(8)}  ${c.dim((ids[i] as string).padEnd(idWidth))}  ${text}${warn}`,
    );
    if (all) lines.push(c.dim(`${indent}${row.cwd || "(no cwd)"}`));
  }
  // Each line made terminal-safe on its own: a newline or tab in a cwd shows, never breaks rows.
  ctx.outLines(lines);
  ctx.out(c.dim(summary(rows)));
}

/** What `ls` found, as one summary line for stderr-free scripts to ignore. */
function summary(rows: readonly TableRow[]): string {
  let bytes = 0;
  for (const row of rows) bytes += row.size;
  return `${rows.length} session${rows.length === 1 ? "" : "s"}, ${formatBytes(bytes)}`;
}
