/**
 * The index's one way to SQLite: Node's built-in `node:sqlite` (SQLite 3.5x with FTS5, in every
 * Node ≥ 22.13), so installing the package compiles nothing. This module loads it on first use
 * (a host that never opens an index never loads it), types the few calls the index makes, and
 * adds what better-sqlite3 had and `node:sqlite` has not: a transaction helper that rolls back
 * on any error, single-value pragmas, and SQLite's error codes read from `errcode`.
 */

import type { DatabaseSync, StatementSync } from "node:sqlite";

/** An open connection. */
export type Database = DatabaseSync;

/**
 * A prepared statement typed by its parameters `P` and the rows `R` it reads. Only a type: the
 * object is `node:sqlite`'s own statement, whose methods take the parameters spread (or one
 * object of named ones), so no wrapper sits on the hot paths.
 */
export interface Statement<P extends unknown[] = unknown[], R = unknown> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
  run(...params: P): { changes: number | bigint; lastInsertRowid: number | bigint };
}

type SqliteModule = typeof import("node:sqlite");
let sqlite: SqliteModule | undefined;

/**
 * `node:sqlite`, loaded once. Node 22 marks it experimental and says so once per process on
 * stderr: the library leaves that warning to its host (a host may want it); the CLI, which owns
 * its process, silences it (see `packages/cli/bin/pi-sessions.mjs`).
 */
export function sqliteModule(): SqliteModule {
  sqlite ??= process.getBuiltinModule("node:sqlite") as SqliteModule | undefined;
  if (sqlite === undefined) {
    throw new Error(`node:sqlite is not available in Node ${process.version} (need ≥ 22.19)`);
  }
  return sqlite;
}

/** Opens a connection (`:memory:` for an in-memory one) with a busy timeout in ms. */
export function openSqlite(
  file: string,
  options: { readonly timeout?: number; readonly readOnly?: boolean } = {},
): Database {
  const { DatabaseSync } = sqliteModule();
  return new DatabaseSync(file, {
    timeout: options.timeout ?? 0,
    readOnly: options.readOnly ?? false,
    // The schema's cascades and checks rely on it (node:sqlite's default, said anyway).
    enableForeignKeyConstraints: true,
  });
}

/** Prepares `sql` as a {@link Statement} giving rows as objects. */
export function prepare<P extends unknown[] = unknown[], R = unknown>(
  db: Database,
  sql: string,
): Statement<P, R> {
  return db.prepare(sql) as unknown as Statement<P, R>;
}

/**
 * Prepares `sql` as a {@link Statement} giving each row as an array of its columns in order:
 * an object per row costs a named property write per column, more than reading the row.
 */
export function prepareArrays<P extends unknown[] = unknown[], R extends unknown[] = unknown[]>(
  db: Database,
  sql: string,
): Statement<P, R> {
  const statement: StatementSync = db.prepare(sql);
  statement.setReturnArrays(true);
  return statement as unknown as Statement<P, R>;
}

/** The first column of the first row of `sql` (a pragma's value), `undefined` without a row. */
export function scalar(db: Database, sql: string, ...params: unknown[]): unknown {
  const row = prepareArrays(db, sql).get(...params);
  return row?.[0];
}

/**
 * Runs `work` with SQLite answering busy at once instead of waiting up to the connection's busy
 * timeout (for work that is worth doing only if no other process holds the lock), then puts the
 * timeout back.
 */
export function withoutWaiting<T>(db: Database, work: () => T): T {
  const busyTimeout = Number(scalar(db, "PRAGMA busy_timeout"));
  db.exec("PRAGMA busy_timeout = 0");
  try {
    return work();
  } finally {
    db.exec(`PRAGMA busy_timeout = ${busyTimeout}`);
  }
}

/** The transaction kinds {@link inTransaction} opens. */
export type TransactionMode = "DEFERRED" | "IMMEDIATE";

/**
 * Runs `work` in one transaction: committed when it returns, rolled back when it (or the
 * commit) throws, and the error passed on. `IMMEDIATE` takes the write lock at once (waiting
 * up to the busy timeout), so the rows read inside are the ones written; `DEFERRED` suits
 * reads (one WAL snapshot for every statement inside).
 */
export function inTransaction<T>(
  db: Database,
  work: () => T,
  mode: TransactionMode = "IMMEDIATE",
): T {
  db.exec(`BEGIN ${mode}`);
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    rollbackQuietly(db);
    throw error;
  }
}

/**
 * Runs `work` in one read transaction (one WAL snapshot for every statement inside): the open
 * one if there is one, else a new `DEFERRED` transaction. A write inside it fails with
 * SQLITE_BUSY_SNAPSHOT when another connection committed after the reads began, so what is
 * written from the reads is never written over a newer state.
 */
export function inReadTransaction<T>(db: Database, work: () => T): T {
  return db.isTransaction ? work() : inTransaction(db, work, "DEFERRED");
}

/** Rolls back the open transaction, if SQLite has not already (it does on SQLITE_FULL). */
export function rollbackQuietly(db: Database): void {
  try {
    if (db.isTransaction) db.exec("ROLLBACK");
  } catch {
    // A broken connection: the transaction is gone with it.
  }
}

/** An error SQLite itself raised, with its (extended) result code. */
export type SqliteError = Error & { readonly code: "ERR_SQLITE_ERROR"; readonly errcode: number };

/** Whether an error comes from SQLite (`node:sqlite`'s `ERR_SQLITE_ERROR`, with `errcode`). */
export function isSqliteError(error: unknown): error is SqliteError {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === "ERR_SQLITE_ERROR" &&
    typeof (error as { errcode?: unknown }).errcode === "number"
  );
}

/** SQLite's primary result codes the index tells apart (`errcode & 0xff`). */
export const SQLITE = { ERROR: 1, BUSY: 5, CORRUPT: 11, FULL: 13, NOTADB: 26 } as const;

/** The primary result code of a SQLite error (extended codes keep it in the low byte). */
export function primaryCode(error: unknown): number | undefined {
  return isSqliteError(error) ? error.errcode & 0xff : undefined;
}

/** Whether SQLite answered busy (another connection holds the lock it needs). */
export function isBusy(error: unknown): boolean {
  return primaryCode(error) === SQLITE.BUSY;
}

/**
 * Prepares `sql` for an object of named parameters that may hold more names than the statement
 * uses (one filter object serves several statements); `arrays` gives rows as arrays.
 */
export function prepareNamed<R = unknown>(db: Database, sql: string, arrays = false) {
  const statement: StatementSync = db.prepare(sql);
  statement.setAllowUnknownNamedParameters(true);
  if (arrays) statement.setReturnArrays(true);
  return statement as unknown as Statement<[Record<string, unknown>], R>;
}
