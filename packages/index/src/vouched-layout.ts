/**
 * What the index vouches for when pi's launcher opens a big session (core's `ColumnsFor`): the
 * layout of the file's entries, from its rows, only when the index's own rule (SPEC §14 F1)
 * says the rows are the file's as it is now. The row must hold every record, be of this very
 * file (device and inode of the file core has open), and either describe it as it is (size,
 * mtime, ctime and last indexed line unchanged) or the file only grew since with its last
 * indexed line intact and by at most a sixteenth (or a mebibyte), in which case the sync reads
 * only the lines
 * after it. Anything else
 * (no row, a listing's row, a rewrite, a truncation, a rename over it) vouches for nothing and
 * the launcher's open checks the file itself: bringing a changed file's rows up to date would
 * cost a whole index of it inside pi's start. And only a file core's shape fold calls regular
 * is vouched for (nothing a load would report: no damaged line, duplicate id, dangling or late
 * parent, torn tail, legacy header), so the layout is exactly the load's entries and a damaged
 * file keeps its diagnostics from the checked open.
 */

import { closeSync, openSync, readSync, type Stats } from "node:fs";
import type { VouchedLayout } from "@pi-sessions/core";
import { readLayoutRows } from "./column-snapshot.js";
import { DEPTH } from "./file-index.js";
import { rowStanding } from "./file-sync.js";
import { withRegularFile } from "./open-file.js";
import { syncOneFile } from "./session-query.js";
import { type Database, inTransaction } from "./sqlite.js";
import type { Statements } from "./statements.js";

/** The header's line, offset and length: the first non-blank line before `end`; else undefined. */
function headerAt(
  path: string,
  end: number,
): Pick<VouchedLayout, "headerLine" | "headerOffset" | "headerLength"> | undefined {
  const bytes = Buffer.allocUnsafe(end);
  const fd = openSync(path, "r");
  try {
    if (readSync(fd, bytes, 0, end, 0) !== end) return undefined;
  } finally {
    closeSync(fd);
  }
  let header: Pick<VouchedLayout, "headerLine" | "headerOffset" | "headerLength"> | undefined;
  let line = 0;
  for (let start = 0; start < end; ) {
    const newline = bytes.indexOf(10, start);
    const stop = newline < 0 || newline >= end ? end : newline;
    line++;
    if (bytes.toString("utf8", start, stop).trim() !== "") {
      // A second non-blank line before the first entry is not a regular file's.
      if (header !== undefined) return undefined;
      header = { headerLine: line, headerOffset: start, headerLength: stop - start };
    }
    start = stop + 1;
  }
  return header;
}

/**
 * How much a file may have grown since it was indexed, as a share of what was, for the index
 * to catch it up inside pi's start: indexing a line costs about eight times checking it
 * (`pnpm bench`, 1.07 GB: 42 s of CPU to index, 5.2 s for the checked open), so past a
 * sixteenth the catch-up would cost more than half of the open it saves, and the launcher
 * checks the file itself instead.
 */
const MAX_GROWTH_SHARE = 16;

/**
 * A growth always caught up, whatever the share: a mebibyte indexes in tens of milliseconds,
 * and a session pi just wrote a turn to has mostly grown by more than a sixteenth of itself.
 */
const MAX_GROWTH_BYTES = 1024 * 1024;

/** Whether the file at `path` stands to `row` so that its rows may answer (see the module comment). */
function catchable(path: string, stats: Stats, row: Parameters<typeof rowStanding>[2]): boolean {
  if (row.filled !== DEPTH.full || row.dev !== stats.dev || row.ino !== stats.ino) return false;
  if (stats.size - row.committed > Math.max(row.committed / MAX_GROWTH_SHARE, MAX_GROWTH_BYTES))
    return false;
  return withRegularFile(
    path,
    () => false,
    (fd, now) => now.ino === stats.ino && rowStanding(fd, now, row) !== "changed",
  );
}

/**
 * The layout of the session file at `path` (open by core with `stats`) from its rows, brought
 * up to date first when it only grew; undefined when the index does not vouch for it. SQLite
 * errors are thrown (the caller reads the file then).
 */
export function vouchedLayout(
  db: Database,
  st: Statements,
  path: string,
  stats: Stats,
): VouchedLayout | undefined {
  const before = st.fileByPath.get(path);
  if (before === undefined || !catchable(path, stats, before)) return undefined;
  const shape = syncOneFile(db, st, path)?.shape;
  if (shape?.regular !== true) return undefined;
  const read = inTransaction(
    db,
    () => {
      const row = st.fileByPath.get(path);
      const current =
        row !== undefined &&
        row.filled === DEPTH.full &&
        row.dev === stats.dev &&
        row.ino === stats.ino &&
        row.committed === shape.size &&
        row.committed === row.size;
      if (!current) return undefined;
      const layout = readLayoutRows(db, row.id);
      // Saved in the transaction that read the rows (see `ReadLayout.save`).
      layout.save();
      return { row, layout };
    },
    "DEFERRED",
  );
  if (read === undefined || read.layout.rows.ids.length !== shape.entries) return undefined;
  const { rows } = read.layout;
  const header = headerAt(path, rows.offsets[0] ?? read.row.committed);
  if (header === undefined) return undefined;
  return { size: read.row.committed, ...header, ...rows };
}
