/**
 * Opening the index file. better-sqlite3 is loaded here, on first use, rather than imported at
 * module load: a machine where the native addon does not load can still import this package,
 * and a caller (the CLI) falls back to reading the files with one line saying why.
 */

import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { prepareSchema } from "./schema.js";

/** The index cannot be used: the addon does not load, or the file cannot be opened or made. */
export class IndexUnavailableError extends Error {
  override readonly name = "IndexUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

type DatabaseConstructor = typeof BetterSqlite3;
let driver: DatabaseConstructor | undefined;

function loadDriver(): DatabaseConstructor {
  if (driver !== undefined) return driver;
  try {
    driver = createRequire(import.meta.url)("better-sqlite3") as DatabaseConstructor;
    return driver;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new IndexUnavailableError(
      `the SQLite addon does not load in Node ${process.version} (${reason}); run \`node scripts/ensure-addon.mjs\` in @pi-sessions/index`,
      { cause: error },
    );
  }
}

/** SQLite result codes that mean the file is not a usable index (its contents are lost). */
const DAMAGED = new Set(["SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_CORRUPT_VTAB"]);

/** Whether an error says the index file's contents are damaged (rebuilding it helps). */
export function isDamagedIndex(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (DAMAGED.has(code) || code.startsWith("SQLITE_CORRUPT"));
}

/** Removes an index file with its WAL and shared-memory files. */
export function removeIndexFile(file: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
}

/** What {@link openDatabase} did besides opening. */
export interface Opened {
  readonly db: BetterSqlite3.Database;
  /** Set when the file was damaged and was replaced by an empty index. */
  readonly rebuiltBecause?: string;
}

/**
 * Opens (creating it and its directory, owner-only) the index at `file`. A file that is not a
 * usable index is removed and made anew: it only ever holds what the session files say.
 */
export function openDatabase(file: string, busyTimeoutMs: number): Opened {
  const Database = loadDriver();
  try {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new IndexUnavailableError(`cannot create the index directory of ${file}`, {
      cause: error,
    });
  }
  const attempt = (): BetterSqlite3.Database => {
    const db = new Database(file, { timeout: busyTimeoutMs });
    try {
      prepareSchema(db, busyTimeoutMs);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  };
  try {
    return { db: attempt() };
  } catch (error) {
    if (!isDamagedIndex(error)) {
      throw new IndexUnavailableError(`cannot open the index ${file}: ${String(error)}`, {
        cause: error,
      });
    }
    removeIndexFile(file);
    const reason = (error as Error).message;
    try {
      return { db: attempt(), rebuiltBecause: reason };
    } catch (again) {
      throw new IndexUnavailableError(`cannot open the index ${file}: ${String(again)}`, {
        cause: again,
      });
    }
  }
}

/** Whether an error comes from SQLite (better-sqlite3's `SqliteError`, with its code). */
export function isSqliteError(error: unknown): error is Error & { code: string } {
  return (
    error instanceof Error &&
    error.name === "SqliteError" &&
    typeof (error as { code?: unknown }).code === "string"
  );
}
