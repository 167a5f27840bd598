/**
 * One session answered from the index: its tree, the path a context is built from, and the
 * records its usage totals are summed over, reading from the file only the lines those need.
 * The file's rows are brought up to date first (the same sync a listing does), and only a
 * file core's shape fold calls regular is answered: one with nothing a full load would report
 * (no damaged line, duplicate id, dangling or late parent, torn tail, legacy header), so its
 * rows are exactly the entries a load keeps, in the same order. Anything else is left to a
 * full read of the file. Every answer is a list of entries handed to core's own functions
 * (`replayState`, `treeOf`, `buildSessionProjection`, the plugins' usage sums): core's own
 * entries over the rows, each record read from its line only when something reads more than
 * its tree fields (`row-entries.ts`), and the plugins' usage state saved while the file was
 * indexed in place of its usage records.
 */

import type { SessionHeader } from "@pi-sessions/core";
import { FileSession, type Span } from "./file-session.js";
import { FileSync } from "./file-sync.js";
import type { IndexedSession } from "./indexed-session.js";
import { LineReader, type QueryRow, RowQueries, StaleLineError } from "./session-rows.js";
import type { Database } from "./sqlite.js";
import type { FileRow, Statements } from "./statements.js";
import { WriteBatch } from "./write-batch.js";

export type { TreeTop } from "./core-tree-top.js";
export type { IndexedSession, UsageSession } from "./indexed-session.js";
export { StaleLineError } from "./session-rows.js";

/**
 * Syncs one file's rows and opens it as an {@link IndexedSession}; `null` when the index does
 * not answer for it (gone, not a session, or not regular: see the module comment). SQLite
 * errors are thrown to the caller, which reads the file instead.
 */
export function openIndexedSession(
  db: Database,
  st: Statements,
  path: string,
): IndexedSession | null {
  const answer = syncOneFile(db, st, path);
  if (answer === null || answer.shape?.regular !== true) return null;
  const row = st.fileByPath.get(path);
  if (row === undefined || row.committed !== answer.shape.size) return null;
  const queries = new RowQueries(db);
  const reader = new LineReader(path, { size: row.size, mtimeMs: row.mtime_ms, ino: row.ino });
  try {
    const span = spanOfRegular(queries, reader, row, answer.shape.entries);
    const last = span === null ? undefined : queries.pathTo(row.id, span.last, 1)[0];
    // The last row must be the file's last line (a regular file's last record is its last
    // entry), else the rows are not the file's: read the file.
    if (span !== null && (last === undefined || last.offset + last.length + 1 !== row.committed)) {
      reader.close();
      return null;
    }
    const header = headerOf(
      reader,
      span === null ? row.committed : firstOffset(queries, row.id, span),
      path,
    );
    return new FileSession(db, reader, {
      fileId: row.id,
      span,
      path,
      header,
      size: row.size,
      entryCount: answer.shape.entries,
      branchTips: answer.shape.branches,
      name: answer.info.name,
      leafId: last?.id ?? null,
    });
  } catch (error) {
    reader.close();
    throw error;
  }
}

/** Brings one file's rows up to date in one write batch; its answer with its shape. */
export function syncOneFile(
  db: Database,
  st: Statements,
  path: string,
): ReturnType<FileSync["run"]> {
  const batch = new WriteBatch(db);
  try {
    const answer = new FileSync(st, path, batch).run(false, true);
    batch.commit();
    return answer;
  } catch (error) {
    batch.rollback();
    throw error;
  }
}

/** A last line longer than this is not parsed for its id: the rows give the span then. */
const LAST_LINE_PARSED_BYTES = 64 * 1024;

/**
 * The first and last rowid of a regular file of `entries` entries, without reading every row
 * where it can: the first is its first root's (`RowQueries.firstRootOf`), the last the row of
 * the id its last indexed line holds (a regular file's last line is its last entry), at that
 * line's offset. Anything else found, and the span is read from every row (`spanOf`); the
 * caller checks the last row against the file's end either way.
 */
function spanOfRegular(
  queries: RowQueries,
  reader: LineReader,
  row: FileRow,
  entries: number,
): Span | null {
  const length = row.committed - row.last_start;
  if (entries > 0 && length > 0 && length <= LAST_LINE_PARSED_BYTES) {
    const first = queries.firstRootOf(row.id);
    const id = idOfLine(reader.bytes(row.last_start, row.committed).toString("utf8"));
    const last = id === undefined ? undefined : queries.row(row.id, id);
    if (first !== null && last !== undefined && last.offset === row.last_start) {
      if (last.rowid >= first) return { first, last: last.rowid };
    }
  }
  return queries.spanOf(row.id);
}

/** The string `id` of the record a line holds, if it holds one. */
function idOfLine(text: string): string | undefined {
  try {
    const id = (JSON.parse(text) as { id?: unknown } | null)?.id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Where the file's first entry starts (the header ends before it). */
function firstOffset(queries: RowQueries, fileId: number, span: Span): number {
  return (queries.pathTo(fileId, span.first, 1)[0] as QueryRow).offset;
}

/** The header record: the first non-blank line before the first entry. */
function headerOf(reader: LineReader, end: number, path: string): SessionHeader {
  const text = reader.bytes(0, end).toString("utf8");
  const line = text.split("\n").find((l) => l.trim() !== "");
  let value: unknown;
  try {
    value = JSON.parse(line ?? "");
  } catch {
    throw new StaleLineError(path, 0);
  }
  if (
    typeof value !== "object" ||
    value === null ||
    (value as { type?: unknown }).type !== "session"
  ) {
    throw new StaleLineError(path, 0);
  }
  return value as SessionHeader;
}
