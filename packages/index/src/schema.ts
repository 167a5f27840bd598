/**
 * The index's tables. One row per session file: its stamp, how far it is indexed, the saved
 * states of core's listing folds with the versions of their rules (`rules`), its finished
 * listing answer once settled, and whether its records are stored too (`filled`: a first
 * listing stores only the listing, and a search or `index` fills in the records). Beside it,
 * the joined message text in `file_text` and the saved states of other folds (the plugins'
 * usage totals) in `file_folds`, each as the fold's own codec wrote it, with its name and
 * version: a listing reads every file's row, and these, as long as the transcript, would
 * spread those rows over overflow pages; `file_columns` keeps a compact snapshot of a big file's
 * rows for opening it (`column-snapshot.ts`). One row per record (its place in the file, its
 * parent's line, and the columns queries use), with an FTS5 table over the records' text.
 * The schema version lives in SQLite's `user_version`: an index of another version is dropped
 * and rebuilt, never migrated (it holds nothing the files do not). `application_id` marks the
 * file as ours (`index-file-proof.ts`).
 */

import { INDEX_APPLICATION_ID } from "./index-file-proof.js";
import { type Database, inTransaction, isBusy, scalar } from "./sqlite.js";

/**
 * How the search table splits text into words and folds them (FTS5's `unicode61`, accents
 * removed). Its character classes are SQLite's, from an older Unicode than JavaScript's: a
 * letter or mark Unicode added since (Newa's U+1144B, say) is part of a word here.
 */
export const SEARCH_TOKENIZER = "unicode61 remove_diacritics 2";

/** Bumped whenever a table changes: older index files are rebuilt from the sessions. */
export const SCHEMA_VERSION = 6;

const TABLES = `
CREATE TABLE files (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  dir TEXT NOT NULL,
  dev REAL NOT NULL,
  ino REAL NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ctime_ms REAL NOT NULL,
  committed INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  last_start INTEGER NOT NULL,
  last_hash BLOB,
  stopped INTEGER NOT NULL,
  rules TEXT NOT NULL,
  folds TEXT NOT NULL,
  filled INTEGER NOT NULL,
  settled INTEGER NOT NULL,
  answer TEXT,
  session INTEGER NOT NULL DEFAULT 0,
  session_id TEXT,
  cwd TEXT
);
CREATE TABLE file_text (
  file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
  all_text BLOB NOT NULL
);
CREATE TABLE file_folds (
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  version INTEGER NOT NULL,
  state TEXT NOT NULL,
  PRIMARY KEY (file_id, name)
) WITHOUT ROWID;
CREATE TABLE file_columns (
  file_id INTEGER PRIMARY KEY REFERENCES files(id) ON DELETE CASCADE,
  last_rowid INTEGER NOT NULL,
  rows INTEGER NOT NULL,
  data BLOB NOT NULL
);
CREATE INDEX files_dir ON files(dir);
CREATE INDEX files_session ON files(session_id);
CREATE TABLE entries (
  file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  length INTEGER NOT NULL,
  id TEXT,
  parent_id TEXT,
  parent_line INTEGER,
  type TEXT,
  role TEXT,
  timestamp TEXT,
  time_ms REAL,
  provider TEXT,
  model TEXT,
  input INTEGER,
  output INTEGER,
  cache_read INTEGER,
  cache_write INTEGER,
  total_tokens INTEGER,
  cost REAL
);
CREATE VIRTUAL TABLE entry_text USING fts5(text, tokenize = '${SEARCH_TOKENIZER}');
CREATE TRIGGER entries_gone AFTER DELETE ON entries BEGIN
  DELETE FROM entry_text WHERE rowid = old.rowid;
END;
`;

/**
 * The secondary indexes of `entries` (a file's records by id and by parent id, for a resumed
 * fold; by file, for deleting a file's rows). A build from nothing drops them and creates them
 * at its end: one sort over the finished table costs a fraction of keeping both up to date
 * row by row. Queries give the same answers without them, only slower.
 */
const ENTRY_INDEXES = `
CREATE INDEX IF NOT EXISTS entries_id ON entries(file_id, id);
CREATE INDEX IF NOT EXISTS entries_parent ON entries(file_id, parent_id);
`;

/** Creates the `entries` indexes that are missing (inside the caller's transaction). */
export function createEntryIndexes(db: Database): void {
  db.exec(ENTRY_INDEXES);
}

/** Drops the `entries` indexes, for a build from nothing (inside its first transaction). */
export function dropEntryIndexes(db: Database): void {
  db.exec("DROP INDEX IF EXISTS entries_id; DROP INDEX IF EXISTS entries_parent;");
}

/** Whether both `entries` indexes exist. */
function hasEntryIndexes(db: Database): boolean {
  const n = scalar(
    db,
    "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN ('entries_id', 'entries_parent')",
  );
  return n === 2;
}

/** What {@link pause} waits on: nothing ever wakes it, so each wait lasts its time. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Waits `ms` milliseconds without spinning (the index's work is synchronous). */
const pause = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

/**
 * Turns the file to WAL. WAL is a property of the file, so after its first open this only reads
 * the mode. Converting needs the file alone, and SQLite does not run the busy handler for it:
 * when two processes open the same new index at once, one is answered busy at once, so it
 * tries again here, with no lock held, for up to `timeoutMs`. Any other answer is final, as
 * before (a file that cannot be WAL stays in its mode; errors are the caller's).
 */
function useWal(db: Database, timeoutMs: number): void {
  // `Date.now`, not `performance.now`: the global `performance` loads `perf_hooks` on first
  // use, a tenth of a warm listing's own start-up.
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (String(scalar(db, "PRAGMA journal_mode")).toLowerCase() === "wal") return;
      db.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= until) throw error;
    }
    pause(5);
  }
}

/** Options of {@link prepareSchema}. */
export interface SchemaOptions {
  /** An in-memory index (tests, `--no-index` searches): no file to turn to WAL. */
  readonly memory?: boolean;
  /** Drop every table and make them anew, even at this version. */
  readonly reset?: boolean;
}

/**
 * Puts the connection in the mode several processes can share (WAL: readers never wait for a
 * writer; a busy timeout: a second writer waits instead of failing) and creates the tables
 * when the file is new or of another schema version.
 */
export function prepareSchema(
  db: Database,
  busyTimeoutMs: number,
  { memory = false, reset = false }: SchemaOptions = {},
): void {
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`);
  if (!memory) useWal(db, busyTimeoutMs);
  // A crash may lose the last commits but never corrupts the file; lost rows are re-indexed.
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  // Index builds insert into several B-trees at once: a bigger page cache saves re-reads.
  db.exec("PRAGMA cache_size = -65536");
  const current = () => scalar(db, "PRAGMA user_version") === SCHEMA_VERSION;
  if (current() && !reset) {
    restoreEntryIndexes(db);
    return;
  }
  inTransaction(db, () => {
    // Another process may have created the tables while this one waited for the lock.
    if (current() && !reset) return;
    for (const table of [
      "entries",
      "entry_text",
      "file_text",
      "file_usage",
      "file_folds",
      "file_columns",
      "files",
    ])
      db.exec(`DROP TABLE IF EXISTS ${table}`);
    db.exec(TABLES);
    createEntryIndexes(db);
    db.exec(`PRAGMA application_id = ${INDEX_APPLICATION_ID}`);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  });
}

/**
 * Creates the `entries` indexes a build that did not finish (a crash, a kill) left dropped.
 * Best effort: an index that cannot be written now answers the same, and the next listing's
 * first write creates them too.
 */
function restoreEntryIndexes(db: Database): void {
  if (hasEntryIndexes(db)) return;
  try {
    inTransaction(db, () => createEntryIndexes(db));
  } catch {
    // Read-only or full: the queries work without the indexes.
  }
}

/** Drops every table and creates them empty, in one transaction. */
export function resetSchema(db: Database, busyTimeoutMs: number, memory = false): void {
  prepareSchema(db, busyTimeoutMs, { memory, reset: true });
}
