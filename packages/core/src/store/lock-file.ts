/**
 * The lock file itself: its name, its content (who holds it) and the raw create/remove steps.
 * Deciding who may take it is `lock.ts`; what this process holds is `lock-held.ts`.
 */
import { constants } from "node:fs";
import { FILE_MODE } from "./paths.js";
import { closeQuietly, errorCode, type StoreFs, writeAll } from "./store-fs.js";

/** Who holds a lock: the JSON content of a `<session>.lock` file. */
export interface LockHolder {
  /** Process id of the holder. */
  readonly pid: number;
  /** Host name of the holder (pids only mean something on the same host). */
  readonly host: string;
  /** ISO-8601 time the lock was taken (informational; staleness uses the file's mtime). */
  readonly acquiredAt: string;
  /**
   * Random tag of this acquisition. Tells our own live lock from a stale one however the
   * session path was spelled (symlinks, relative paths), and makes every lock's text unique
   * so a release never removes a lock taken by someone else in the same millisecond.
   */
  readonly token?: string;
}

/** Suffix of a lock file; the session id validator must leave room for it (W18, SPEC §1.4). */
export const LOCK_SUFFIX = ".lock";

/** The lock file of a session file. */
export function lockPathFor(sessionPath: string): string {
  return sessionPath + LOCK_SUFFIX;
}

/** Reads and validates a lock file's content; `undefined` if it is not a holder record. */
export function parseHolder(text: string): LockHolder | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return undefined;
    const { pid, host, acquiredAt, token } = value as Record<string, unknown>;
    if (typeof pid !== "number" || typeof host !== "string" || typeof acquiredAt !== "string") {
      return undefined;
    }
    return { pid, host, acquiredAt, token: typeof token === "string" ? token : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Removes a stale lock if its content is still what was judged stale (re-read just before the
 * unlink, so a lock a competitor took in the meantime is left alone; the window between the
 * read and the unlink remains, which is why appends also check size and inode).
 */
export function removeIfUnchanged(lockPath: string, fsApi: StoreFs, text: string): void {
  try {
    if (fsApi.readFileSync(lockPath) === text) fsApi.unlinkSync(lockPath);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}

/** Creates the lock file with O_EXCL; false if it already exists. */
export function tryCreate(lockPath: string, fsApi: StoreFs, text: string): boolean {
  let fd: number;
  try {
    fd = fsApi.openSync(
      lockPath,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      FILE_MODE,
    );
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
  try {
    writeAll(fsApi, fd, Buffer.from(text, "utf8"));
  } catch (error) {
    closeQuietly(fsApi, fd);
    try {
      fsApi.unlinkSync(lockPath); // a half-written lock of ours would block until it aged out
    } catch {
      // Keep the write error: it is the cause. An unreadable lock goes stale after a grace period.
    }
    throw error;
  }
  closeQuietly(fsApi, fd);
  return true;
}
