import { errorCode } from "./store-fs.js";

/** Thrown when the file is not what this writer last left: another writer got in (W7). */
export class SessionConflictError extends Error {
  /**
   * `detail` says what differed; `inProcess` when the other writer is a newer manager of this
   * process (pi's own resume flows), not another process or tool.
   */
  constructor(
    /** The session file. */
    readonly path: string,
    detail: string,
    /** Whether the other writer is a newer manager of this process. */
    readonly inProcess = false,
  ) {
    super(`Session file was changed by another writer (${detail}); nothing was written: ${path}`);
    this.name = "SessionConflictError";
  }
}

/** Thrown when a flushed session's file has been deleted; it is not recreated (W8). */
export class SessionFileDeletedError extends Error {
  constructor(readonly path: string) {
    super(`Session file was deleted; it will not be recreated: ${path}`);
    this.name = "SessionFileDeletedError";
  }
}

/** `call()` on the file at `path`, turning ENOENT into {@link SessionFileDeletedError}. */
export function unlessDeleted<T>(path: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (errorCode(error) === "ENOENT") throw new SessionFileDeletedError(path);
    throw error;
  }
}

/** Throws {@link SessionConflictError} unless the file has exactly the bytes we last left. */
export function assertSize(path: string, actual: number, expected: number): void {
  if (actual !== expected)
    throw new SessionConflictError(path, `${actual} bytes, expected ${expected}`);
}
