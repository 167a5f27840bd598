/**
 * The rows of the `files` table as the index reads and writes them: what a listing reads of
 * every row in its scope, what a walk reads, the whole row, what a (re-)index writes, and what
 * settling a row checks. The statements that read and write them are in `statements.ts`.
 */

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
export type RawListedRow = [
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
export const LISTED_COLUMNS = `id, path, dev, ino, size, mtime_ms, committed, ctime_ms, settled, answer,
  rules, filled`;

/** A {@link ListedRow} from its statement's array. */
export function listedRow(r: RawListedRow): ListedRow {
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

/** The columns a (re-)index writes of a row, each a field of {@link FileUpdate}. */
export const FILE_COLUMNS = [
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

/** The named values of {@link FILE_COLUMNS} (node:sqlite refuses a name the statement lacks). */
export function columnValues(update: FileUpdate): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const column of FILE_COLUMNS) values[column] = update[column];
  return values;
}

/** A row found to answer for its file by stat alone from now on (see `FileSync`). */
export type Settle = Pick<
  ListedRow,
  "id" | "dev" | "ino" | "size" | "mtime_ms" | "committed" | "ctime_ms" | "rules"
>;
