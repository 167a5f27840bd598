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
 * `truncate(text, width)` without flattening all of a long text (a first message can be a
 * whole pasted file). Flattening a prefix gives a prefix of the whole text's flattening, so
 * when the prefix flattens to more than `width` characters the cut falls inside it: its first
 * `width - 1` are the answer's.
 */
function cell(text: string, width: number): string {
  const head = 2 * width + 16;
  if (width > 1 && text.length > head) {
    const start = truncate(text.slice(0, head), width + 1);
    if (start.length > width) return `${start.slice(0, width - 1)}…`;
  }
  return truncate(text, width);
}

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
        ? c.cyan(cell(row.name, textWidth))
        : cell(row.firstMessage, textWidth);
    const warn =
      row.problems > 0
        ? c.yellow(` [${row.problems} problem${row.problems === 1 ? "" : "s"}]`)
        : "";
    lines.push(
      `${formatDateMs(row.modified)}  ${pad(String(row.entries), 7, true)}  ${pad(String(row.branches), 8, true)}  ${pad(formatBytes(row.size), 8, true)}  ${c.dim(pad(ids[i] as string, idWidth))}  ${text}${warn}`,
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
