import * as fs from "node:fs";

/** `open` flags that create a file for writing and fail with EEXIST if it exists. */
export const CREATE_EXCLUSIVE = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL;

/** The part of a `stat` result the store reads. */
export interface StoreStats {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  /** Number of hard links; 0 once an open file has been deleted or renamed over. */
  readonly nlink: number;
  readonly mode: number;
  readonly mtimeMs: number;
}

/**
 * The synchronous file-system calls the store makes, one signature each. Production code uses
 * {@link nodeStoreFs}; tests pass a wrapper that fails or counts calls (a test seam: it lets a
 * test inject ENOSPC half-way through a write or count fsyncs, which real files cannot do on
 * demand). Every path argument is a plain string.
 */
export interface StoreFs {
  openSync(path: string, flags: number, mode?: number): number;
  /** Writes `length` bytes of `buffer` from `offset`; returns the bytes written. */
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  ftruncateSync(fd: number, length: number): void;
  fstatSync(fd: number): StoreStats;
  statSync(path: string): StoreStats;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, to: string): void;
  unlinkSync(path: string): void;
  /** Reads a whole file as UTF-8. */
  readFileSync(path: string): string;
  utimesSync(path: string, atime: Date, mtime: Date): void;
}

/** {@link StoreFs} backed by `node:fs`. */
export const nodeStoreFs: StoreFs = {
  openSync: (path, flags, mode) => fs.openSync(path, flags, mode),
  writeSync: (fd, buffer, offset, length) => fs.writeSync(fd, buffer, offset, length),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  closeSync: (fd) => fs.closeSync(fd),
  ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
  fstatSync: (fd) => fs.fstatSync(fd),
  statSync: (path) => fs.statSync(path),
  renameSync: (from, to) => fs.renameSync(from, to),
  linkSync: (existing, to) => fs.linkSync(existing, to),
  unlinkSync: (path) => fs.unlinkSync(path),
  readFileSync: (path) => fs.readFileSync(path, "utf8"),
  utimesSync: (path, atime, mtime) => fs.utimesSync(path, atime, mtime),
};

/** The `code` of a Node system error (`ENOENT`, `EEXIST`, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Writes the first `length` bytes of `buffer` at the fd's position, looping over short writes.
 * Throws on the first failing call; `progress.written` then says how many bytes went out
 * before it, so a caller can undo them.
 */
export function writeAll(
  fsApi: StoreFs,
  fd: number,
  buffer: Uint8Array,
  length = buffer.length,
  progress = { written: 0 },
): void {
  progress.written = 0;
  while (progress.written < length) {
    const n = fsApi.writeSync(fd, buffer, progress.written, length - progress.written);
    // A regular file never accepts 0 bytes without an error; guard against spinning forever.
    if (n <= 0) throw new Error(`write returned ${n} with ${length - progress.written} bytes left`);
    progress.written += n;
  }
}

/** Closes `fd`, ignoring errors: used on paths that are already failing or tearing down. */
export function closeQuietly(fsApi: StoreFs, fd: number): void {
  try {
    fsApi.closeSync(fd);
  } catch {
    // The fd is unusable either way; the original error (if any) is the one worth reporting.
  }
}

/** Removes `path`, ignoring errors: cleanup on a path that is already failing. */
export function unlinkQuietly(fsApi: StoreFs, path: string): void {
  try {
    fsApi.unlinkSync(path);
  } catch {
    // The original error is the one worth reporting; what is left is a temp or lock file.
  }
}
