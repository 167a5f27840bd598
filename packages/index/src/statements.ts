/**
 * The prepared statements of one open index: prepared once per connection, typed by the rows
 * they read and write.
 */

import { type Database, prepare, prepareArrays, type Statement } from "./sqlite.js";

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
  /** The file's answer at the row's stamp (core's `encodeListingAnswer`), torn tail and all. */
  readonly answer: string | null;
  /** The rules (`indexRules()`) the row's folds and answer were made under. */
  readonly rules: string;
  /** How much the row holds (`DEPTH`): 0 its listing, 1 and its text, 2 and every record. */
  readonly filled: number;
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
  string,
  number,
];

/** The columns of a {@link ListedRow}, in its statement's order. */
const LISTED_COLUMNS = `id, path, dev, ino, size, mtime_ms, committed, ctime_ms, settled, answer,
  rules, filled`;

/** A {@link ListedRow} from its statement's array. */
function listedRow(r: RawListedRow): ListedRow {
  return {
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
    rules: r[10],
    filled: r[11],
  };
}

/**
 * A row as a walk reads it: its path, stamp and stored answer, and whether it is settled under
 * the rules it was asked about (1) or not (0).
 */
export type StampedRow = [
  path: string,
  dev: number,
  ino: number,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  answer: string | null,
  settledUnderRules: number,
];

/** A row's stamp, committed bytes and rules, and its joined text as UTF-8. */
export type StampedText = [
  id: number,
  dev: number,
  ino: number,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  committed: number,
  rules: string,
  text: Uint8Array,
];

/** A `files` row (the stamp, how far the file is indexed, and the folds' saved states). */
export interface FileRow extends ListedRow {
  /** Lines (blank ones included) in those bytes. */
  readonly lines: number;
  /** Where the last complete line starts (`committed` when no line is indexed). */
  readonly last_start: number;
  /** SHA-1 of the bytes `[last_start, committed)`, `null` when no line is indexed. */
  readonly last_hash: Uint8Array | null;
  /** 1 when core's info fold stopped: the first record is not a session header. */
  readonly stopped: number;
  /** The listing folds' saved states (`fold-state.ts`), `""` when they could not be saved. */
  readonly folds: string;
}

/** What is written for a file after a (re-)index. */
export interface FileUpdate
  extends Omit<FileRow, "id" | "stopped" | "settled" | "answer" | "filled" | "last_hash"> {
  readonly last_hash: Uint8Array | null;
  readonly filled: 0 | 1 | 2;
  readonly dir: string;
  readonly stopped: 0 | 1;
  /** A (re-)index is never settled at once: the listing settles it when it may. */
  readonly settled: 0;
  /** The file's answer at this stamp (core's `encodeListingAnswer`). */
  readonly answer: string | null;
  /** 1 when `answer` is a session's. */
  readonly session: 0 | 1;
  readonly session_id: string | null;
  readonly cwd: string | null;
}

const COLUMNS = [
  "path",
  "dir",
  "dev",
  "ino",
  "size",
  "mtime_ms",
  "ctime_ms",
  "committed",
  "lines",
  "last_start",
  "last_hash",
  "stopped",
  "rules",
  "folds",
  "filled",
  "settled",
  "answer",
  "session",
  "session_id",
  "cwd",
] as const;

/** The named values of {@link COLUMNS} (node:sqlite refuses a name the statement lacks). */
function columnValues(update: FileUpdate): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const column of COLUMNS) values[column] = update[column];
  return values;
}

/** {@link Statements.stampsBetween} prepared alone: a warm listing needs no other statement. */
export function prepareStampsBetween(
  db: Database,
): Statement<[rules: string, from: string, to: string], StampedRow> {
  // `+path`: a scan of the table in its own order, not a range of the path index and a lookup
  // of each row in the table (a third of the query's cost at 10,000 rows). Rows of another
  // root (an index several `--dir` roots share) are read and left out by the comparison.
  return prepareArrays(
    db,
    `SELECT path, dev, ino, size, mtime_ms, ctime_ms, answer, settled = 1 AND rules = ?
     FROM files WHERE +path > ? AND +path < ?`,
  );
}

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
    this.stampsBetween = prepareStampsBetween(db);
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
    const names = COLUMNS.join(", ");
    const values = COLUMNS.map((c) => `@${c}`).join(", ");
    const insertRow = prepare<[Record<string, unknown>], void>(
      db,
      `INSERT INTO files (${names}) VALUES (${values})`,
    );
    this.insertFile = {
      run: (update) => Number(insertRow.run(columnValues(update)).lastInsertRowid),
    };
    const sets = COLUMNS.map((c) => `${c} = @${c}`).join(", ");
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

/** A row found to answer for its file by stat alone from now on (see `FileSync`). */
export type Settle = Pick<
  ListedRow,
  "id" | "dev" | "ino" | "size" | "mtime_ms" | "committed" | "ctime_ms" | "rules"
>;
