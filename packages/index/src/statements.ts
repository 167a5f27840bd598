/**
 * The prepared statements of one open index: prepared once per connection, typed by the rows
 * they read and write (`file-rows.ts`).
 */

import {
  columnValues,
  FILE_COLUMNS,
  type FileRow,
  type FileUpdate,
  LISTED_COLUMNS,
  type ListedRow,
  listedRow,
  type RawListedRow,
  type Settle,
  type StampedRow,
  type StampedText,
} from "./file-rows.js";
import { type Database, prepare, prepareArrays, type Statement } from "./sqlite.js";

export type {
  FileRow,
  FileUpdate,
  ListedRow,
  Settle,
  StampedRow,
  StampedText,
} from "./file-rows.js";

/** The statements, bound to one connection. */
export class Statements {
  readonly fileByPath: Statement<[string], FileRow>;
  /** The rows whose path lies strictly between the two strings. */
  readonly filesBetween: { all(from: string, to: string): ListedRow[] };
  /** The row of one path, as {@link filesBetween} reads it. */
  readonly listedByPath: { get(path: string): ListedRow | undefined };
  /**
   * The rows whose path lies strictly between `from` and `to` as a walk reads them (arrays, no
   * object per row), `settledUnderRules` 1 when settled and made under `rules`.
   */
  readonly stampsBetween: Statement<[rules: string, from: string, to: string], StampedRow>;
  /** The row's joined text, if it has one. */
  readonly textOf: { get(id: number): { all_text: string } | undefined };
  /**
   * The row's joined text (`""` without one) while the row is still `row` as a listing read it
   * (same stamp, committed bytes, rules and depth); `undefined` once it is not.
   */
  readonly textWhileUnchanged: (row: ListedRow) => string | undefined;
  /**
   * The joined texts of the rows whose path lies strictly between `from` and `to`, each with
   * the stamp, committed bytes and rules of its row, read in one statement (one snapshot).
   */
  readonly textsBetween: Statement<[from: string, to: string], StampedText>;
  /** Writes a new row; resolves its id. */
  readonly insertFile: { run(update: FileUpdate): number };
  readonly updateFile: { run(id: number, update: FileUpdate): void };
  /** Keeps the row's joined text (in `file_text`), or drops it (`null`). */
  readonly setText: (id: number, text: string | null) => void;
  readonly deleteFile: Statement<[number], void>;
  readonly hasId: Statement<[number, string, number], unknown>;
  readonly hasParent: Statement<[number, string, number], unknown>;
  readonly pathsInDir: Statement<[string], { id: number; path: string }>;
  readonly settle: Statement<[Settle], void>;

  constructor(db: Database) {
    const rowColumns = `id, path, dev, ino, size, mtime_ms, committed, lines, last_start,
      last_hash, stopped, folds, filled, ctime_ms, settled, answer, rules`;
    this.fileByPath = prepare(db, `SELECT ${rowColumns} FROM files WHERE path = ?`);
    // Not the folds' states and the hash: strings of every row for the few files opened.
    const between = prepareArrays<[string, string], RawListedRow>(
      db,
      `SELECT ${LISTED_COLUMNS} FROM files WHERE path > ? AND path < ?`,
    );
    this.filesBetween = { all: (from, to) => between.all(from, to).map(listedRow) };
    const byPath = prepareArrays<[string], RawListedRow>(
      db,
      `SELECT ${LISTED_COLUMNS} FROM files WHERE path = ?`,
    );
    this.listedByPath = {
      get: (path) => {
        const row = byPath.get(path);
        return row === undefined ? undefined : listedRow(row);
      },
    };
    this.stampsBetween = prepareArrays(
      db,
      `SELECT path, dev, ino, size, mtime_ms, ctime_ms, answer, settled = 1 AND rules = ?
       FROM files WHERE path > ? AND path < ?`,
    );
    // The text is kept as UTF-8 bytes: node:sqlite reads TEXT only up to a NUL, and a message
    // may hold one.
    const textOf = prepareArrays<[number], [Uint8Array]>(
      db,
      "SELECT all_text FROM file_text WHERE file_id = ?",
    );
    this.textOf = {
      get(id) {
        const bytes = textOf.get(id)?.[0];
        if (bytes === undefined) return undefined;
        return { all_text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString() };
      },
    };
    const textIf = prepareArrays<unknown[], [Uint8Array | null]>(
      db,
      `SELECT t.all_text FROM files f LEFT JOIN file_text t ON t.file_id = f.id
       WHERE f.id = ? AND f.dev = ? AND f.ino = ? AND f.size = ? AND f.mtime_ms = ?
         AND f.ctime_ms = ? AND f.committed = ? AND f.rules = ? AND f.filled = ?`,
    );
    this.textWhileUnchanged = (row) => {
      const found = textIf.get(
        row.id,
        row.dev,
        row.ino,
        row.size,
        row.mtime_ms,
        row.ctime_ms,
        row.committed,
        row.rules,
        row.filled,
      );
      if (found === undefined) return undefined;
      const bytes = found[0];
      if (bytes === null) return "";
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString();
    };
    // Not `filled`: it lies after the folds' saved states in the record, which a scan would then
    // read through their overflow pages. A row with text keeps it for its committed bytes.
    this.textsBetween = prepareArrays(
      db,
      `SELECT f.id, f.dev, f.ino, f.size, f.mtime_ms, f.ctime_ms, f.committed, f.rules, t.all_text
       FROM files f JOIN file_text t ON t.file_id = f.id WHERE f.path > ? AND f.path < ?`,
    );
    const names = FILE_COLUMNS.join(", ");
    const values = FILE_COLUMNS.map((c) => `@${c}`).join(", ");
    const insertRow = prepare<[Record<string, unknown>], void>(
      db,
      `INSERT INTO files (${names}) VALUES (${values})`,
    );
    this.insertFile = {
      run: (update) => Number(insertRow.run(columnValues(update)).lastInsertRowid),
    };
    const sets = FILE_COLUMNS.map((c) => `${c} = @${c}`).join(", ");
    const updateRow = prepare<[Record<string, unknown>], void>(
      db,
      `UPDATE files SET ${sets} WHERE id = @id`,
    );
    const putText = prepare<[number, Buffer], void>(
      db,
      `INSERT INTO file_text (file_id, all_text) VALUES (?, ?)
       ON CONFLICT (file_id) DO UPDATE SET all_text = excluded.all_text`,
    );
    const dropText = prepare<[number], void>(db, "DELETE FROM file_text WHERE file_id = ?");
    this.updateFile = { run: (id, update) => updateRow.run({ ...columnValues(update), id }) };
    this.setText = (id, text) => {
      if (text === null) dropText.run(id);
      else putText.run(id, Buffer.from(text));
    };
    this.deleteFile = prepare(db, "DELETE FROM files WHERE id = ?");
    this.hasId = prepare(db, "SELECT 1 FROM entries WHERE file_id = ? AND id = ? AND line <= ?");
    this.hasParent = prepare(
      db,
      "SELECT 1 FROM entries WHERE file_id = ? AND parent_id = ? AND line <= ?",
    );
    this.pathsInDir = prepare(db, "SELECT id, path FROM files WHERE dir = ?");
    // Only while the row still describes the same file at the same size, mtime and ctime:
    // another process may have caught it up (or indexed it anew) since it was checked.
    this.settle = prepare(
      db,
      `UPDATE files SET settled = 1
       WHERE id = @id AND dev = @dev AND ino = @ino AND size = @size AND mtime_ms = @mtime_ms
         AND ctime_ms = @ctime_ms AND committed = @committed AND rules = @rules`,
    );
  }
}
