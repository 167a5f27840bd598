import { errorCode, type FileIdentity, type StoreFs, type StoreStats } from "./store-fs.js";

/** Thrown when the file is not what this writer last left: another writer got in (W7). */
export class SessionConflictError extends Error {
  /** The session file. */
  readonly path: string;

  /** Builds the error; `detail` says what differed. */
  constructor(path: string, detail: string) {
    super(`Session file was changed by another writer (${detail}); nothing was written: ${path}`);
    this.name = "SessionConflictError";
    this.path = path;
  }
}

/** Thrown when a flushed session's file has been deleted; it is not recreated (W8). */
export class SessionFileDeletedError extends Error {
  /** The session file. */
  readonly path: string;

  /** Builds the error for `path`. */
  constructor(path: string) {
    super(`Session file was deleted; it will not be recreated: ${path}`);
    this.name = "SessionFileDeletedError";
    this.path = path;
  }
}

/** Throws {@link SessionConflictError} unless the file has exactly the bytes we last left. */
function assertSize(path: string, actual: number, expected: number): void {
  if (actual !== expected) {
    throw new SessionConflictError(path, `${actual} bytes, expected ${expected}`);
  }
}

/** `stat` of `path`, turning ENOENT into {@link SessionFileDeletedError}. */
function statExisting(fsApi: StoreFs, path: string): StoreStats {
  try {
    return fsApi.statSync(path);
  } catch (error) {
    if (errorCode(error) === "ENOENT") throw new SessionFileDeletedError(path);
    throw error;
  }
}

/**
 * `fstat` of the open session fd, which must have `expectedSize` bytes: a foreign append or
 * truncate changes it (W7). Returns the stats for the identity checks.
 */
export function fstatExpected(
  fsApi: StoreFs,
  path: string,
  fd: number,
  expectedSize: number,
): StoreStats {
  const stats = fsApi.fstatSync(fd);
  assertSize(path, stats.size, expectedSize);
  return stats;
}

/**
 * The path must still name the open file `open`: not deleted (W8), not replaced by someone's
 * rename (W7).
 */
export function assertPathNames(fsApi: StoreFs, path: string, open: FileIdentity): void {
  const onDisk = statExisting(fsApi, path);
  if (onDisk.ino !== open.ino || onDisk.dev !== open.dev) {
    throw new SessionConflictError(path, "the path now names a different file");
  }
}

/** For a file not opened yet (before a rewrite): it must exist with the size we read. */
export function assertUnopenedSize(fsApi: StoreFs, path: string, expectedSize: number): void {
  assertSize(path, statExisting(fsApi, path).size, expectedSize);
}

/** Total UTF-8 size of `chunks`. */
export function chunksByteLength(chunks: readonly string[]): number {
  let total = 0;
  for (const chunk of chunks) total += Buffer.byteLength(chunk, "utf8");
  return total;
}

/** False when the concatenation of `chunks` is non-empty and does not end in `\n`. */
export function chunksEndWithNewline(chunks: readonly string[]): boolean {
  for (let i = chunks.length - 1; i >= 0; i--) {
    const chunk = chunks[i] ?? "";
    if (chunk.length > 0) return chunk.endsWith("\n");
  }
  return true;
}
