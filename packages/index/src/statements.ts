/**
 * The prepared statements of one open index: prepared once per connection, typed by the rows
 * they read and write.
 */

import type { Database, Statement } from "better-sqlite3";

/**
 * What a listing reads of every row in its scope up front: enough to answer for a file its stat
 * vouches for (the rest of the row is read only for the files that must be opened).
 */
export interface ListedRow {
  readonly id: number;
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtime_ms: number;
  /** Bytes up to and including the last complete line that is indexed. */
  readonly committed: number;
  /** The file's ctime when its row was last written or checked against it. */
  readonly ctime_ms: number;
  /**
   * 1 when `answer` is the file's answer at this row's stamp (dev, ino, size, mtime, ctime) and
   * that ctime was already old when the file was read (see `FileSync`): while the file's stat
   * still gives the same stamp, the row answers without the file being opened.
   */
  readonly settled: number;
  /** The finished answer (`stored-answer.ts`) when `settled`, else `null`. */
  readonly answer: string | null;
}

/** A {@link ListedRow} as its statement reads it, in the interface's order. */
type RawListedRow = [
  number,
  string,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  string | null,
];

/** A `files` row (the stamp, how far the file is indexed, and the folds' saved state). */
export interface FileRow extends ListedRow {
  /** Lines (blank ones included) in those bytes. */
  readonly lines: number;
  /** Where the last complete line starts (`committed` when no line is indexed). */
  readonly last_start: number;
  /** SHA-1 of the bytes `[last_start, committed)`, `null` when no line is indexed. */
  readonly last_hash: Buffer | null;
  /** 1 when core's info fold stopped: the first record is not a session header. */
  readonly stopped: number;
  readonly state: string;
}

/** What is written for a file after a (re-)index. */
export interface FileUpdate extends Omit<FileRow, "id" | "stopped" | "settled" | "answer"> {
  readonly dir: string;
  readonly stopped: 0 | 1;
  /** A (re-)index is never settled at once: the listing settles it when it may. */
  readonly settled: 0;
  readonly answer: null;
  readonly all_text: string;
  readonly session_id: string | null;
  readonly cwd: string | null;
}

/** The statements, bound to one connection. */
export class Statements {
  readonly fileByPath: Statement<[string], FileRow>;
  /** The rows whose path lies strictly between the two strings. */
  readonly filesBetween: { all(from: string, to: string): ListedRow[] };
  readonly textOf: Statement<[number], { all_text: string }>;
  readonly insertFile: Statement<[FileUpdate], void>;
  /** Writes the row and its joined text (kept in `file_text`, away from the listing's reads). */
  readonly updateFile: { run(update: FileUpdate & { id: number }): void };
  readonly deleteFile: Statement<[number], void>;
  readonly clearEntries: Statement<[number], void>;
  readonly hasId: Statement<[number, string, number], unknown>;
  readonly hasParent: Statement<[number, string, number], unknown>;
  readonly pathsInDir: Statement<[string], { id: number; path: string }>;
  readonly settle: Statement<[Settle], void>;

  constructor(db: Database) {
    const rowColumns = `id, path, dev, ino, size, mtime_ms, committed, lines, last_start,
      last_hash, stopped, state, ctime_ms, settled, answer`;
    this.fileByPath = db.prepare(`SELECT ${rowColumns} FROM files WHERE path = ?`);
    // Not the folds' state and the hash: strings of every row for the few files opened.
    // As arrays, made into objects here: an object per row made by the addon costs a named
    // property write per column, more than reading the row.
    const between = db
      .prepare<[string, string], RawListedRow>(
        `SELECT id, path, dev, ino, size, mtime_ms, committed, ctime_ms, settled, answer
         FROM files WHERE path > ? AND path < ?`,
      )
      .raw(true);
    this.filesBetween = {
      all: (from, to) =>
        between.all(from, to).map((r) => ({
          id: r[0],
          path: r[1],
          dev: r[2],
          ino: r[3],
          size: r[4],
          mtime_ms: r[5],
          committed: r[6],
          ctime_ms: r[7],
          settled: r[8],
          answer: r[9],
        })),
    };
    this.textOf = db.prepare("SELECT all_text FROM file_text WHERE file_id = ?");
    const columns =
      "path, dir, dev, ino, size, mtime_ms, ctime_ms, committed, lines, last_start, last_hash, stopped, state, settled, answer, session_id, cwd";
    const values = columns
      .split(", ")
      .map((c) => `@${c}`)
      .join(", ");
    this.insertFile = db.prepare(`INSERT INTO files (${columns}) VALUES (${values})`);
    const sets = columns
      .split(", ")
      .map((c) => `${c} = @${c}`)
      .join(", ");
    const updateRow = db.prepare<[FileUpdate & { id: number }], void>(
      `UPDATE files SET ${sets} WHERE id = @id`,
    );
    const putText = db.prepare<[{ id: number; all_text: string }], void>(
      `INSERT INTO file_text (file_id, all_text) VALUES (@id, @all_text)
       ON CONFLICT (file_id) DO UPDATE SET all_text = excluded.all_text`,
    );
    this.updateFile = {
      run(update) {
        updateRow.run(update);
        putText.run({ id: update.id, all_text: update.all_text });
      },
    };
    this.deleteFile = db.prepare("DELETE FROM files WHERE id = ?");
    this.clearEntries = db.prepare("DELETE FROM entries WHERE file_id = ?");
    this.hasId = db.prepare("SELECT 1 FROM entries WHERE file_id = ? AND id = ? AND line <= ?");
    this.hasParent = db.prepare(
      "SELECT 1 FROM entries WHERE file_id = ? AND parent_id = ? AND line <= ?",
    );
    this.pathsInDir = db.prepare("SELECT id, path FROM files WHERE dir = ?");
    // Only while the row still describes the same file at the same size and mtime: another
    // process may have caught it up (or indexed it anew) since it was checked.
    this.settle = db.prepare(
      `UPDATE files SET ctime_ms = @ctime_ms, settled = 1, answer = @answer
       WHERE id = @id AND dev = @dev AND ino = @ino AND size = @size AND mtime_ms = @mtime_ms
         AND committed = @committed`,
    );
  }
}

/** A row found to answer for its file by stat alone from now on (see `FileSync`). */
export interface Settle
  extends Pick<ListedRow, "id" | "dev" | "ino" | "size" | "mtime_ms" | "committed" | "ctime_ms"> {
  readonly answer: string;
}
