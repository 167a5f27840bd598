/**
 * One session file's records as the index holds them: its rows' columns (id, parent, type,
 * timestamp, role, model), and the full record read back from the file by its byte place when a
 * query needs what only the line holds. Reads are grouped: lines
 * close together in the file are read with one `readSync`, so a path of a thousand entries
 * costs a few reads, not a thousand.
 */

import { closeSync, readSync } from "node:fs";
import type { SessionEntry } from "@pi-sessions/core";
import { openRegular } from "./open-file.js";
import { type Database, prepare, prepareArrays, type Statement } from "./sqlite.js";

/** The columns of one `entries` row that the queries read. */
export interface QueryRow {
  readonly rowid: number;
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly id: string | null;
  readonly parentId: string | null;
  readonly type: string | null;
  readonly role: string | null;
  readonly timestamp: string | null;
  readonly provider: string | null;
  readonly model: string | null;
}

/** An `entries` row as the queries select it (the columns of {@link QueryRow}, in order). */
export type RawRow = [
  number,
  number,
  number,
  number,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
];

const COLUMNS = `e.rowid, e.line, e.offset, e.length, e.id, e.parent_id, e.type, e.role,
  e.timestamp, e.provider, e.model`;

/** The tree's columns (no model: a tree never reads one; each column costs per row). */
export const TREE_COLUMNS = `e.rowid, e.line, e.offset, e.length, e.id, e.parent_id, e.type, e.role,
  e.timestamp, NULL, NULL`;

/** What reading a usage record needs: its place, id and role. */
const USAGE_COLUMNS =
  "e.rowid, 0, e.offset, e.length, e.id, NULL, e.type, e.role, NULL, NULL, NULL";

/** Record types that can hold a usage record (with assistant and tool-result messages). */
const USAGE_FILTER = `(e.type IN ('compaction', 'branch_summary', 'usage')
  OR (e.type = 'message' AND e.role IN ('assistant', 'toolResult')))`;

/** The {@link QueryRow} of a raw row. */
export const toRow = (r: RawRow): QueryRow => ({
  rowid: r[0],
  line: r[1],
  offset: r[2],
  length: r[3],
  id: r[4],
  parentId: r[5],
  type: r[6],
  role: r[7],
  timestamp: r[8],
  provider: r[9],
  model: r[10],
});

/**
 * The queries over one file's rows. A file's rows are read by a rowid range (one file's
 * rows are inserted in file order, each after every row there is) with the file id as a
 * filter, not through an index: a scan in table order instead of a lookup per row.
 */
export class RowQueries {
  private readonly span: Statement<[number], { first: number | null; last: number | null }>;
  private readonly firstRoot: Statement<[number], [number | null]>;
  private readonly all: Statement<[number, number, number], RawRow>;
  private readonly usage: Statement<[number, number, number], RawRow>;
  private readonly byId: Statement<[number, string], RawRow>;
  private readonly idsFrom: Statement<[number, string], [number, string]>;
  private readonly path: Statement<[number, number, number], RawRow>;

  constructor(db: Database) {
    this.span = prepare(
      db,
      "SELECT min(rowid) AS first, max(rowid) AS last FROM entries INDEXED BY entries_id WHERE file_id = ?",
    );
    // Through the parents' index: the roots of the file, in rowid order, the first one read.
    this.firstRoot = prepareArrays(
      db,
      "SELECT min(rowid) FROM entries WHERE file_id = ? AND parent_id IS NULL",
    );
    const range = "FROM entries e WHERE e.rowid BETWEEN ? AND ? AND +e.file_id = ?";
    this.all = prepareArrays<[number, number, number], RawRow>(
      db,
      `SELECT ${TREE_COLUMNS} ${range} ORDER BY e.rowid`,
    );
    this.usage = prepareArrays<[number, number, number], RawRow>(
      db,
      `SELECT ${USAGE_COLUMNS} ${range} AND ${USAGE_FILTER} ORDER BY e.rowid`,
    );
    this.byId = prepareArrays<[number, string], RawRow>(
      db,
      `SELECT ${COLUMNS} FROM entries e WHERE e.file_id = ? AND e.id = ?`,
    );
    this.idsFrom = prepareArrays<[number, string], [number, string]>(
      db,
      "SELECT rowid, id FROM entries WHERE file_id = ? AND id >= ? ORDER BY id",
    );
    // The path's rows leaf first; the path is joined first so each step is one index lookup.
    this.path = prepareArrays<[number, number, number], RawRow>(
      db,
      `WITH RECURSIVE p(rid, pid, depth) AS (
           SELECT rowid, parent_id, 0 FROM entries WHERE rowid = ?
           UNION ALL
           SELECT e.rowid, e.parent_id, p.depth + 1
           FROM p CROSS JOIN entries e ON e.file_id = ? AND e.id = p.pid
           LIMIT ?
         )
         SELECT ${COLUMNS} FROM p CROSS JOIN entries e ON e.rowid = p.rid ORDER BY p.depth DESC`,
    );
  }

  /** The first and last rowid of the file's rows (`null` without rows), reading every row. */
  spanOf(fileId: number): { first: number; last: number } | null {
    const span = this.span.get(fileId);
    if (span?.first == null || span.last == null) return null;
    return { first: span.first, last: span.last };
  }

  /**
   * The first rowid among the file's roots: in a regular file its first row (the first entry
   * has no earlier entry to name as parent), found without reading every row.
   */
  firstRootOf(fileId: number): number | null {
    return this.firstRoot.get(fileId)?.[0] ?? null;
  }

  /** Every row of the file in file order, without the model columns. */
  rows(fileId: number, span: { first: number; last: number }): QueryRow[] {
    return this.all.all(span.first, span.last, fileId).map(toRow);
  }

  /** The rows that can hold a usage record, in file order: place, id, type and role only. */
  usageRows(fileId: number, span: { first: number; last: number }): QueryRow[] {
    return this.usage.all(span.first, span.last, fileId).map(toRow);
  }

  /** The row at `rowid` (of the file) and those of its parents, root first. */
  pathTo(fileId: number, rowid: number, limit: number): QueryRow[] {
    return this.path.all(rowid, fileId, limit).map(toRow);
  }

  /** The row of entry `id`, if any. */
  row(fileId: number, id: string): QueryRow | undefined {
    const r = this.byId.get(fileId, id);
    return r === undefined ? undefined : toRow(r);
  }

  /** The ids that start with `prefix`, in file order. */
  idsStartingWith(fileId: number, prefix: string): string[] {
    const found: [number, string][] = [];
    // Ids are compared as UTF-8 bytes, so those starting with `prefix` follow it in a row.
    for (const [rowid, id] of this.idsFrom.iterate(fileId, prefix)) {
      if (!id.startsWith(prefix)) break;
      found.push([rowid, id]);
    }
    return found.sort((a, b) => a[0] - b[0]).map(([, id]) => id);
  }
}

/** Lines further apart than this are read separately rather than with the bytes between. */
const GAP_BYTES = 64 * 1024;
/** A grouped read never spans more than this (unless one line is longer). */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/** A line that no longer holds the record its row describes: the file changed under us. */
export class StaleLineError extends Error {
  constructor(path: string, offset: number) {
    super(`${path} changed at byte ${offset} while it was read`);
    this.name = "StaleLineError";
  }
}

/**
 * An open session file whose lines are read by byte place. `stamp` is the size and mtime the
 * index synced against: a file found otherwise when opened is refused (the rows may be stale).
 */
export class LineReader {
  private readonly fd: number;
  private scratch = Buffer.allocUnsafe(0);

  constructor(
    private readonly path: string,
    stamp: { readonly size: number; readonly mtimeMs: number; readonly ino: number },
  ) {
    const opened = openRegular(path);
    if (opened === null) throw new StaleLineError(path, 0);
    this.fd = opened.fd;
    const stats = opened.stats;
    if (stats.size !== stamp.size || stats.mtimeMs !== stamp.mtimeMs || stats.ino !== stamp.ino) {
      closeSync(this.fd);
      throw new StaleLineError(path, 0);
    }
  }

  /** Reads bytes `[from, to)` of the file. */
  bytes(from: number, to: number): Buffer {
    return Buffer.from(this.read(from, to));
  }

  /** Bytes `[from, to)` in a buffer reused by the next read (grouped reads are many MiB). */
  private read(from: number, to: number): Buffer {
    if (this.scratch.length < to - from) this.scratch = Buffer.allocUnsafe(to - from);
    const buffer = this.scratch.subarray(0, to - from);
    let got = 0;
    while (got < buffer.length) {
      const n = readSync(this.fd, buffer, got, buffer.length - got, from + got);
      if (n === 0) throw new StaleLineError(this.path, from + got);
      got += n;
    }
    return buffer;
  }

  /**
   * The parsed records of `rows` (any order), keyed by row. Each must parse to an object
   * with the row's id, else the file changed since it was indexed: {@link StaleLineError}.
   * A row whose line `skip` accepts (looking at its bytes only) is left out unparsed.
   */
  records(
    rows: readonly QueryRow[],
    skip?: (row: QueryRow, bytes: Buffer) => boolean,
  ): Map<QueryRow, SessionEntry> {
    const out = new Map<QueryRow, SessionEntry>();
    this.eachLine(rows, (row, text) => out.set(row, this.parse(row, text)), skip);
    return out;
  }

  /**
   * Each row's line text, unchecked (its reader checks it), lines close together read with one
   * `readSync`, in file order.
   */
  eachLine(
    rows: readonly QueryRow[],
    use: (row: QueryRow, text: string) => void,
    skip?: (row: QueryRow, bytes: Buffer) => boolean,
  ): void {
    const inOrder = rows.every((r, i) => i === 0 || (rows[i - 1] as QueryRow).offset < r.offset);
    const sorted = inOrder ? rows : [...rows].sort((a, b) => a.offset - b.offset);
    let i = 0;
    while (i < sorted.length) {
      const first = sorted[i] as QueryRow;
      let j = i + 1;
      let end = first.offset + first.length;
      while (j < sorted.length) {
        const next = sorted[j] as QueryRow;
        if (
          next.offset - end > GAP_BYTES ||
          next.offset + next.length - first.offset > MAX_READ_BYTES
        )
          break;
        end = Math.max(end, next.offset + next.length);
        j++;
      }
      const buffer = this.read(first.offset, end);
      for (let k = i; k < j; k++) {
        const row = sorted[k] as QueryRow;
        const at = row.offset - first.offset;
        if (skip?.(row, buffer.subarray(at, at + row.length)) === true) continue;
        use(row, buffer.toString("utf8", at, at + row.length));
      }
      i = j;
    }
  }

  private parse(row: QueryRow, text: string): SessionEntry {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new StaleLineError(this.path, row.offset);
    }
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof value !== "object" || value === null || id !== row.id) {
      throw new StaleLineError(this.path, row.offset);
    }
    return value as SessionEntry;
  }

  /** Closes the file. */
  close(): void {
    closeSync(this.fd);
  }
}
