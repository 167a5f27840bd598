/**
 * Opening the index file. An index only ever holds what the session files say, so a damaged
 * one may be deleted and made anew, but only a file proven to be an index of ours: `--index
 * FILE` or `PI_SESSIONS_INDEX` may name anything (a session, a notes file, a device), and a
 * read command must never delete or overwrite what it did not make (`index-file-proof.ts`).
 */

import { chmodSync, closeSync, mkdirSync, openSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { type IndexFileProof, proveIndexFile } from "./index-file-proof.js";
import { prepareSchema } from "./schema.js";
import { type Database, isSqliteError, openSqlite, primaryCode, SQLITE } from "./sqlite.js";

/** The index cannot be used: SQLite does not load, or the file cannot be opened, made or used. */
export class IndexUnavailableError extends Error {
  override readonly name = "IndexUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Whether an error says the index file's contents are damaged (rebuilding it helps). */
export function isDamagedIndex(error: unknown): boolean {
  const code = primaryCode(error);
  return code === SQLITE.CORRUPT || code === SQLITE.NOTADB;
}

/**
 * Removes an index file with its WAL and shared-memory files, once it is proven to be ours;
 * otherwise leaves all three as they are and throws {@link IndexUnavailableError}.
 */
export function removeIndexFile(file: string): void {
  const proof = proveIndexFile(file);
  if (proof.kind === "foreign") throw refusal(file, proof);
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
}

/** The one line saying why a file is left alone. */
function refusal(file: string, proof: Extract<IndexFileProof, { kind: "foreign" }>) {
  return new IndexUnavailableError(
    `${file} is not a pi-sessions index (${proof.reason}); it is left as it is`,
  );
}

/** What {@link openDatabase} did besides opening. */
export interface Opened {
  readonly db: Database;
  /** Set when the file was a damaged index of ours and was replaced by an empty one. */
  readonly rebuiltBecause?: string;
}

/**
 * Creates `file` empty and owner-only when it is not there. SQLite gives the `-wal` and `-shm`
 * files it makes the mode the database file has at that moment; left to SQLite, a new index
 * would be made with the umask (0644), and so would its WAL, which holds transcript text for
 * as long as the connection that made it lives. An empty file is a new database to SQLite.
 */
function createOwnerOnly(file: string): void {
  try {
    closeSync(openSync(file, "wx", 0o600));
  } catch {
    // There already (another process made it meanwhile), or not creatable: SQLite says why.
  }
}

/**
 * Opens (creating it and its directory, owner-only) the index at `file`. A file that is not
 * ours is refused before SQLite writes a byte to it; a damaged index of ours is removed and
 * made anew.
 */
export function openDatabase(file: string, busyTimeoutMs: number): Opened {
  const memory = file === ":memory:";
  if (!memory) {
    const proof = proveIndexFile(file);
    if (proof.kind === "foreign") throw refusal(file, proof);
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new IndexUnavailableError(`cannot create the index directory of ${file}`, {
        cause: error,
      });
    }
  }
  const attempt = (): Database => {
    if (!memory) createOwnerOnly(file);
    const db = openSqlite(file, { timeout: busyTimeoutMs });
    try {
      prepareSchema(db, busyTimeoutMs, { memory });
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  };
  try {
    return { db: attempt() };
  } catch (error) {
    if (error instanceof IndexUnavailableError) throw error;
    if (!isDamagedIndex(error) || memory) {
      throw new IndexUnavailableError(`cannot open the index ${file}: ${describe(error)}`, {
        cause: error,
      });
    }
    removeIndexFile(file);
    const reason = describe(error);
    try {
      return { db: attempt(), rebuiltBecause: reason };
    } catch (again) {
      throw new IndexUnavailableError(`cannot open the index ${file}: ${describe(again)}`, {
        cause: again,
      });
    }
  }
}

/**
 * Opens the index at `file` for use: {@link openDatabase}, a rebuild of a damaged index told to
 * `notice` in one line, and the file made owner-only (it holds transcript text, like the
 * sessions). Throws {@link IndexUnavailableError} as {@link openDatabase} does.
 */
export function openIndexConnection(
  file: string,
  busyTimeoutMs: number,
  notice: (message: string) => void,
): Database {
  const opened = openDatabase(file, busyTimeoutMs);
  if (opened.rebuiltBecause !== undefined) {
    notice(`index ${file} was damaged (${opened.rebuiltBecause}); it is rebuilt from the files`);
  }
  try {
    if (file !== ":memory:") chmodSync(file, 0o600);
  } catch {
    // Another user's index we may read; leave its mode alone.
  }
  return opened.db;
}

/** An error's message on one line. */
export function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0] ?? text;
}

export { isSqliteError };
