/**
 * One session file's records as the index holds them: a light stand-in per record built from
 * its columns (id, parent, type, timestamp, role, model), and the full record read back from the
 * file by its byte place when a query needs what only the line holds. Reads are grouped: lines
 * close together in the file are read with one `readSync`, so a path of a thousand entries
 * costs a few reads, not a thousand.
 */

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { SessionEntry } from "@pi-sessions/core";
import type { Database, Statement } from "better-sqlite3";

/** The columns of one `entries` row that the queries read, in file order. */
export interface QueryRow {
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

type RawRow = [
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

/** The statement reading a file's rows (raw arrays: a million rows cost no key lookups). */
export function rowsStatement(db: Database): Statement<[number], RawRow> {
  return db
    .prepare<[number], RawRow>(
      `SELECT offset, length, id, parent_id, type, role, timestamp, provider, model
       FROM entries WHERE file_id = ? ORDER BY line`,
    )
    .raw(true);
}

/** Every row of file `fileId`, in file order. */
export function readRows(statement: Statement<[number], RawRow>, fileId: number): QueryRow[] {
  const out: QueryRow[] = [];
  for (const r of statement.all(fileId)) {
    out.push({
      offset: r[0],
      length: r[1],
      id: r[2],
      parentId: r[3],
      type: r[4],
      role: r[5],
      timestamp: r[6],
      provider: r[7],
      model: r[8],
    });
  }
  return out;
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

  constructor(
    private readonly path: string,
    stamp: { readonly size: number; readonly mtimeMs: number; readonly ino: number },
  ) {
    this.fd = openSync(path, "r");
    const stats = fstatSync(this.fd);
    if (stats.size !== stamp.size || stats.mtimeMs !== stamp.mtimeMs || stats.ino !== stamp.ino) {
      closeSync(this.fd);
      throw new StaleLineError(path, 0);
    }
  }

  /** Reads bytes `[from, to)` of the file. */
  bytes(from: number, to: number): Buffer {
    const buffer = Buffer.allocUnsafe(to - from);
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
   */
  records(rows: readonly QueryRow[]): Map<QueryRow, SessionEntry> {
    const sorted = [...rows].sort((a, b) => a.offset - b.offset);
    const out = new Map<QueryRow, SessionEntry>();
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
      const buffer = this.bytes(first.offset, end);
      for (let k = i; k < j; k++) {
        const row = sorted[k] as QueryRow;
        const at = row.offset - first.offset;
        out.set(row, this.parse(row, buffer.toString("utf8", at, at + row.length)));
      }
      i = j;
    }
    return out;
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
