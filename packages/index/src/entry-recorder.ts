/**
 * The visitor of a catch-up: core's folds see every line; each record after the header is
 * also stored with its byte place and columns, and its text is added to the search table.
 * Rows are written a few dozen at a time with one multi-row `INSERT` each: a building index
 * writes a row per record, and one statement call per row (with 18 values bound one by one)
 * cost more than SQLite's own work on the row.
 */

import type { JsonRecord, LineIssue } from "@pi-sessions/core/internal";
import type { Database, Statement } from "better-sqlite3";
import { entryFields } from "./entry-fields.js";
import type { Folds } from "./fold-state.js";
import type { LineChunk } from "./line-chunks.js";

/** Rows per multi-row statement: big enough to share the call's cost, well under 32,766 values. */
const ROWS = 32;
/** Values bound per `entries` row, `rowid` first. */
const ENTRY_VALUES = 19;

const ENTRY_COLUMNS = `rowid, file_id, line, offset, length, id, parent_id, type, role, timestamp,
  time_ms, provider, model, input, output, cache_read, cache_write, total_tokens, cost`;

const placeholders = (rows: number, values: number) =>
  Array.from({ length: rows }, () => `(${Array.from({ length: values }, () => "?").join(",")})`);

/** The inserts of one connection, for a full batch of rows and for one row. */
interface EntryStatements {
  readonly maxRowid: Statement<[], { max: number | null }>;
  readonly entries: Statement<unknown[]>;
  readonly entry: Statement<unknown[]>;
  readonly texts: Statement<unknown[]>;
  readonly text: Statement<unknown[]>;
}

const prepared = new WeakMap<Database, EntryStatements>();

function statementsOf(db: Database): EntryStatements {
  let st = prepared.get(db);
  if (st === undefined) {
    const entries = (rows: number) =>
      db.prepare(
        `INSERT INTO entries (${ENTRY_COLUMNS}) VALUES ${placeholders(rows, ENTRY_VALUES).join(",")}`,
      );
    const texts = (rows: number) =>
      db.prepare(`INSERT INTO entry_text (rowid, text) VALUES ${placeholders(rows, 2).join(",")}`);
    st = {
      maxRowid: db.prepare("SELECT max(rowid) AS max FROM entries"),
      entries: entries(ROWS),
      entry: entries(1),
      texts: texts(ROWS),
      text: texts(1),
    };
    prepared.set(db, st);
  }
  return st;
}

/**
 * Rows waiting to be written, `ROWS` at a time through the multi-row statement; `flush`
 * writes the rest one by one. The full group's array is handed to SQLite as it is.
 */
class PendingRows {
  private values: unknown[];
  private length = 0;

  constructor(
    private readonly many: Statement<unknown[]>,
    private readonly one: Statement<unknown[]>,
    private readonly width: number,
  ) {
    this.values = new Array(ROWS * width);
  }

  /** Adds one row (its `width` values), writing the group once it is full. */
  add(...row: unknown[]): void {
    for (const value of row) this.values[this.length++] = value;
    if (this.length === this.values.length) {
      this.many.run(this.values);
      this.length = 0;
    }
  }

  /** Writes the rows of a group that is not full. */
  flush(): void {
    for (let at = 0; at < this.length; at += this.width) {
      this.one.run(this.values.slice(at, at + this.width));
    }
    this.length = 0;
  }
}

/**
 * Feeds core's folds and records the entries of one file's catch-up. Rows are given their
 * `rowid` here (the next after the table's largest, read once under the write lock) so that
 * the search row of an entry can be written without asking SQLite which rowid it got.
 */
export class EntryRecorder {
  private chunk: LineChunk | undefined;
  /** Lines the scanner numbered before the current chunk. */
  private before = 0;
  private nextRowid: number;
  private readonly entries: PendingRows;
  private readonly texts: PendingRows;
  /** The current chunk's search rows (`rowid`, text), written after it. */
  private textRows: unknown[] = [];
  stopped = false;

  constructor(
    db: Database,
    private readonly fileId: number,
    private readonly folds: Folds,
    private readonly baseLines: number,
  ) {
    const st = statementsOf(db);
    this.nextRowid = (st.maxRowid.get()?.max ?? 0) + 1;
    this.entries = new PendingRows(st.entries, st.entry, ENTRY_VALUES);
    this.texts = new PendingRows(st.texts, st.text, 2);
  }

  /** The chunk the scanner is about to see, after `before` lines of this run. */
  at(chunk: LineChunk, before: number): void {
    this.writeTexts();
    this.chunk = chunk;
    this.before = before;
  }

  record(record: JsonRecord, line: number, raw: string): boolean {
    const wasHeader = this.folds.info.header === null;
    if (this.folds.shape.record(record, line, raw) === false) {
      this.stopped = true;
      return false;
    }
    if (wasHeader) return true;
    this.store(record, line);
    return true;
  }

  issue(issue: LineIssue): boolean {
    return this.folds.shape.issue(issue) !== false;
  }

  /** Writes the rows still pending; call before the file's row is written. */
  finish(): void {
    this.entries.flush();
    this.writeTexts();
    this.texts.flush();
  }

  /**
   * Writes the search rows held since the last chunk. They wait for the chunk's end: written
   * in one run, apart from the entries, they cost less than interleaved (each table's pages
   * and FTS5's term buffer stay warm), and one chunk's texts are all that is held.
   */
  private writeTexts(): void {
    const rows = this.textRows;
    for (let i = 0; i < rows.length; i += 2) this.texts.add(rows[i], rows[i + 1]);
    this.textRows = [];
  }

  private store(record: JsonRecord, line: number): void {
    const chunk = this.chunk as LineChunk;
    // The scanner numbers lines from 1 across chunks; map the number into this chunk.
    const index = line - 1 - this.before;
    const offset = chunk.starts[index] as number;
    const next = chunk.starts[index + 1] ?? chunk.end;
    const f = entryFields(record);
    const rowid = this.nextRowid++;
    this.entries.add(
      rowid,
      this.fileId,
      this.baseLines + line,
      offset,
      next - offset - 1,
      f.id,
      f.parentId,
      f.type,
      f.role,
      f.timestamp,
      f.timeMs,
      f.provider,
      f.model,
      f.input,
      f.output,
      f.cacheRead,
      f.cacheWrite,
      f.totalTokens,
      f.cost,
    );
    if (f.text !== "") this.textRows.push(rowid, f.text);
  }
}
