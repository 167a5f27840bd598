/**
 * The visitor of a catch-up: core's folds see every line; each record after the header is
 * also stored with its byte place, its parent's line and its columns, its text is added to the
 * search table, and while the file is regular it is folded into the plugins' usage totals.
 *
 * Every row is written by a one-row `INSERT` with positional values. A multi-row `INSERT`
 * would save statement calls but costs far more than it saves: a statement that writes
 * several rows opens a statement savepoint, and FTS5 writes its pending terms out as a new
 * segment at every savepoint, so the search table would get a segment (and the merges that
 * follow) per statement instead of one per megabyte of text.
 */

import type { SessionEntry } from "@pi-sessions/core";
import type { JsonRecord, LineIssue } from "@pi-sessions/core/internal";
import { type EntryFields, entryFields } from "./entry-fields.js";
import type { ListingFolds } from "./fold-state.js";
import type { LineChunk } from "./line-chunks.js";
import { type Database, prepare, prepareArrays, type Statement } from "./sqlite.js";
import type { UsageFold } from "./usage-fold.js";

/** The statement that writes one `entries` row, its values in {@link entryValues}' order. */
export const INSERT_ENTRY = `INSERT INTO entries (rowid, file_id, line, offset, length, id,
    parent_id, parent_line, type, role, timestamp, time_ms, provider, model, input, output,
    cache_read, cache_write, total_tokens, cost)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/**
 * The text as the search table keeps it: a NUL becomes a space (SQLite's text functions, and
 * node:sqlite's reading of text, stop at a NUL, so a snippet would end there).
 */
function searchable(text: string): string {
  return text.includes("\0") ? text.replaceAll("\0", " ") : text;
}

/** Where a record is in its file: its rowid, file, line, byte place and parent's line. */
export interface EntryPlace {
  readonly rowid: number;
  readonly fileId: number;
  readonly line: number;
  readonly offset: number;
  readonly length: number;
  readonly parentLine: number | null;
}

/**
 * The values of one `entries` row for {@link INSERT_ENTRY}, positional (spread into the
 * statement's call): named parameters would cost a property lookup per value and row.
 */
export function entryValues(place: EntryPlace, f: EntryFields): unknown[] {
  return [
    place.rowid,
    place.fileId,
    place.line,
    place.offset,
    place.length,
    f.id,
    f.parentId,
    place.parentLine,
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
  ];
}

/** The statements of one connection's recorders. */
interface EntryStatements {
  readonly maxRowid: Statement<[], { max: number | null }>;
  readonly entry: Statement<unknown[]>;
  readonly text: Statement<[number, string]>;
  readonly lineOf: Statement<[number, string, number], [number | null]>;
}

const prepared = new WeakMap<Database, EntryStatements>();

function statementsOf(db: Database): EntryStatements {
  let st = prepared.get(db);
  if (st === undefined) {
    st = {
      maxRowid: prepare(db, "SELECT max(rowid) AS max FROM entries"),
      entry: prepare(db, INSERT_ENTRY),
      text: prepare(db, "INSERT INTO entry_text (rowid, text) VALUES (?, ?)"),
      lineOf: prepareArrays(
        db,
        "SELECT max(line) FROM entries WHERE file_id = ? AND id = ? AND line <= ?",
      ),
    };
    prepared.set(db, st);
  }
  return st;
}

/**
 * Feeds core's folds and records the entries of one file's catch-up. Rows are given their
 * `rowid` here (the next after the table's largest, read once under the write lock), so the
 * search row of an entry needs no answer back from SQLite.
 */
export class EntryRecorder {
  private chunk: LineChunk | undefined;
  /** Lines the scanner numbered before the current chunk. */
  private before = 0;
  private nextRowid: number;
  private readonly st: EntryStatements;
  /** The line of each id stored by this run (the last one wins, as in core's tree). */
  private readonly lines = new Map<string, number>();
  stopped = false;

  constructor(
    db: Database,
    private readonly fileId: number,
    private readonly folds: ListingFolds,
    private readonly baseLines: number,
    private readonly usage: UsageFold,
  ) {
    this.st = statementsOf(db);
    this.nextRowid = (this.st.maxRowid.get()?.max ?? 0) + 1;
  }

  /** The chunk the scanner is about to see, after `before` lines of this run. */
  at(chunk: LineChunk, before: number): void {
    this.chunk = chunk;
    this.before = before;
  }

  record(record: JsonRecord, line: number, raw: string): boolean {
    const wasHeader = !this.folds.info.hasHeader;
    if (this.folds.shape.record(record, line, raw) === false) {
      this.stopped = true;
      return false;
    }
    if (wasHeader) return true;
    this.store(record, line);
    if (this.folds.shape.regularSoFar) this.usage.apply(record as SessionEntry);
    else this.usage.drop();
    return true;
  }

  issue(issue: LineIssue): boolean {
    return this.folds.shape.issue(issue) !== false;
  }

  private store(record: JsonRecord, line: number): void {
    const chunk = this.chunk as LineChunk;
    // The scanner numbers lines from 1 across chunks; map the number into this chunk.
    const index = line - 1 - this.before;
    const offset = chunk.starts[index] as number;
    const next = chunk.starts[index + 1] ?? chunk.end;
    const f = entryFields(record);
    const rowid = this.nextRowid++;
    const at = this.baseLines + line;
    if (f.id !== null) this.lines.set(f.id, at);
    const parentLine = f.parentId === null ? null : this.parentLine(f.parentId, at);
    const length = next - offset - 1;
    const place = { rowid, fileId: this.fileId, line: at, offset, length, parentLine };
    this.st.entry.run(...entryValues(place, f));
    if (f.text !== "") this.st.text.run(rowid, searchable(f.text));
  }

  /**
   * The line of the entry named as parent, stored before `at` (by this run, or by an earlier
   * one when the file is caught up), or `null` when there is none before it.
   */
  private parentLine(parentId: string, at: number): number | null {
    const line = this.lines.get(parentId);
    if (line !== undefined) return line < at ? line : null;
    // A file new to the index has nothing stored to look in (and a build from nothing runs
    // without the id index such a lookup needs).
    if (this.baseLines === 0) return null;
    return this.st.lineOf.get(this.fileId, parentId, this.baseLines)?.[0] ?? null;
  }
}
