/**
 * One session answered from the index: its tree, the path a context is built from, and the
 * records its usage totals are summed over, reading from the file only the lines those need.
 * The file's rows are brought up to date first (the same sync a listing does), and only a
 * file core's shape fold calls regular is answered: one with nothing a full load would report
 * (no damaged line, duplicate id, dangling or late parent, torn tail, legacy header), so its
 * rows are exactly the entries a load keeps, in the same order. Anything else is left to a
 * full read of the file. Every answer is a list of entries handed to core's own functions
 * (`replayState`, `treeOf`, `buildSessionProjection`, the plugins' usage sums): where a record
 * does not change an answer, a stand-in built from its columns takes its place, and the
 * plugins' usage state saved while the file was indexed stands in for its usage records.
 */

import type { SessionEntry, SessionHeader } from "@pi-sessions/core";
import type { Database } from "better-sqlite3";
import { FileSession, type Span } from "./file-session.js";
import { FileSync } from "./file-sync.js";
import { LineReader, type QueryRow, RowQueries, StaleLineError } from "./session-rows.js";
import type { Statements } from "./statements.js";
import type { TreeTop } from "./tree-top.js";
import { WriteBatch } from "./write-batch.js";

export { StaleLineError } from "./session-rows.js";
export type { TreeTop } from "./tree-top.js";

/**
 * A session file read through the index: what a load gives, reading only what each query
 * needs. Use it before the index is closed; close it when done.
 */
export interface IndexedSession {
  /** The session file. */
  readonly path: string;
  /** The header record as the file holds it (a regular file's is current: no migration). */
  readonly header: SessionHeader;
  /** The header's `version` (a number of at least 3). */
  readonly version: number;
  /** Bytes of the file. */
  readonly size: number;
  /** Entries (each with an id: the file is regular). */
  readonly entryCount: number;
  /** Entries no other entry names as parent. */
  readonly branchTips: number;
  /** The session's name as core's listing and name projection give it. */
  readonly name: string | undefined;
  /** The leaf a load ends at: the last entry's id, `null` without entries. */
  readonly leafId: string | null;
  /** Whether an entry has exactly this id. */
  hasId(id: string): boolean;
  /** The ids that start with `prefix`, in file order. */
  idsStartingWith(prefix: string): string[];
  /**
   * Every entry in file order, for core's `replayState` and `treeOf`: stand-ins built from the
   * columns, with the label and name records read. {@link IndexedSession.entryAt} reads one.
   */
  entries(): SessionEntry[];
  /** The record at `position` of {@link IndexedSession.entries}, read from the file. */
  entryAt(position: number): SessionEntry;
  /**
   * Core's tree down to `depth` levels and the level under them, for `tree --depth`, with
   * {@link TreeTop.below} counting what it leaves out: no stand-in for the entries deeper.
   */
  treeTop(depth: number): TreeTop;
  /** The path root → `leafId` for core's context builder (records read where they count). */
  contextPath(leafId: string | null): SessionEntry[];
  /**
   * The session as the plugins' usage sums ask one: with the usage state the index saved for
   * the file, the records on a branch's path are read only when the sums ask for that path,
   * and every usage record only when asked for the entries.
   */
  usageSession(leafId: string | null): UsageSession;
  /** Closes the file. */
  close(): void;
}

/** A session as the plugins' `computeUsageTotals` asks one. */
export interface UsageSession {
  getEntries(): SessionEntry[];
  getLeafId(): string | null;
  getBranch(fromId?: string): SessionEntry[];
  /** The plugins' usage-totals state when the index saved it for these entries. */
  getProjectionState?<S = unknown>(name: string): S | undefined;
}

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
  const batch = new WriteBatch(db);
  let answer: ReturnType<FileSync["run"]>;
  try {
    answer = new FileSync(st, path, batch).run(false, true);
    batch.commit();
  } catch (error) {
    batch.rollback();
    throw error;
  }
  if (answer === null || answer.shape?.regular !== true) return null;
  const row = st.fileByPath.get(path);
  if (row === undefined || row.committed !== answer.shape.size) return null;
  const queries = new RowQueries(db);
  const span = queries.spanOf(row.id);
  const reader = new LineReader(path, { size: row.size, mtimeMs: row.mtime_ms, ino: row.ino });
  try {
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
