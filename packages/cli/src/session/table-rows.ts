/**
 * What `ls` shows, apart from how it is shown: the table's rows, made from full rows or, for a
 * listing from the index, straight from the stored summaries (no `Date` and no full row per
 * session: at ten thousand sessions those cost as much as reading the rows), and the full
 * rows `--json` prints, made only when asked for.
 */

import type { ListedRows, PathSummary, SessionRow } from "./summary-rows.js";

/** What the table shows of one session. */
export interface TableRow {
  readonly id: string;
  readonly cwd: string;
  readonly name: string | undefined;
  readonly firstMessage: string;
  /** Last modified, in ms since the epoch (`NaN`: unknown, an Invalid Date). */
  readonly modified: number;
  readonly entries: number;
  readonly branches: number;
  readonly size: number;
  readonly problems: number;
}

/** The table's view of a full row. */
export function tableRowOf(row: SessionRow): TableRow {
  return {
    id: row.id,
    cwd: row.cwd,
    name: row.name,
    firstMessage: row.firstMessage,
    modified: row.modified.getTime(),
    entries: row.entries,
    branches: row.branches,
    size: row.size,
    problems: row.problems,
  };
}

/**
 * The table's row of a regular file's summary, as {@link tableRowOf} shows its full row
 * (`regularRowOfSummary`); `undefined` for an irregular file, whose problems only a full load
 * counts.
 */
export function tableRowOfSummary(summary: PathSummary): TableRow | undefined {
  const shape = summary.shape;
  if (!shape.regular) return undefined;
  return {
    id: summary.id,
    cwd: summary.cwd,
    name: summary.name ?? undefined,
    firstMessage: summary.firstMessage,
    // `new Date(null ?? NaN).getTime()`, without the Date.
    modified: summary.modified ?? Number.NaN,
    entries: shape.entries,
    branches: shape.branches,
    size: shape.size,
    problems: 0,
  };
}

/** A listing `ls` prints: newest first, as table rows or as full rows. */
export interface Listed {
  /** How many sessions. */
  readonly count: number;
  /** How many `*.jsonl` files the listing met, when it counted them. */
  readonly files: number | undefined;
  /**
   * Whether the listing's own walk met nothing that cannot be read (`QuickListing.clean`):
   * then a scan for such things would find none. `false` when it did not look.
   */
  readonly clean: boolean;
  /** The table's rows. */
  table(): Promise<TableRow[]>;
  /** The full rows (`ls --json`). */
  rows(): Promise<SessionRow[]>;
}

/** The listing of full rows already made. */
export function listedOfRows({ rows, files }: ListedRows): Listed {
  return {
    count: rows.length,
    files,
    clean: false,
    table: async () => rows.map(tableRowOf),
    rows: async () => rows,
  };
}
