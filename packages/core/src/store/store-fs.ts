import * as fs from "node:fs";

/** The two numbers of a `stat` result the store compares to detect a replaced file. */
export interface FileIdentity {
  /** Device id. */
  readonly dev: number;
  /** Inode number. */
  readonly ino: number;
}

/** The part of a `stat` result the store reads. */
export interface StoreStats extends FileIdentity {
  /** Size in bytes. */
  readonly size: number;
  /** Number of hard links; 0 once an open file has been deleted or renamed over. */
  readonly nlink: number;
  /** Permission and type bits. */
  readonly mode: number;
  /** Last modification time in ms since the epoch. */
  readonly mtimeMs: number;
}

/**
 * The synchronous file-system calls the store makes, one signature each. Production code uses
 * {@link nodeStoreFs}; tests pass a wrapper that fails or counts calls (a test seam: it lets a
 * test inject ENOSPC half-way through a write or count fsyncs, which real files cannot do on
 * demand). Every path argument is a plain string.
 */
export interface StoreFs {
  /** `open(2)` with numeric flags. */
  openSync(path: string, flags: number, mode?: number): number;
  /** `write(2)` of `length` bytes of `buffer` from `offset`; returns the bytes written. */
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  /** `fsync(2)`. */
  fsyncSync(fd: number): void;
  /** `close(2)`. */
  closeSync(fd: number): void;
  /** `ftruncate(2)`. */
  ftruncateSync(fd: number, length: number): void;
  /** `fstat(2)`. */
  fstatSync(fd: number): StoreStats;
  /** `stat(2)`; throws ENOENT when the path is missing. */
  statSync(path: string): StoreStats;
  /** `rename(2)`: atomically replaces `to`. */
  renameSync(from: string, to: string): void;
  /** `link(2)`: fails with EEXIST when `to` exists. */
  linkSync(existing: string, to: string): void;
  /** `unlink(2)`. */
  unlinkSync(path: string): void;
  /** Reads a whole file as UTF-8. */
  readFileSync(path: string): string;
  /** Sets access and modification times. */
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
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/**
 * Writes all of `buffer` at the fd's position, looping over short writes. Throws on the first
 * failing call; `onProgress` sees how many bytes were written before it, so a caller can undo.
 */
export function writeAll(
  fsApi: StoreFs,
  fd: number,
  buffer: Uint8Array,
  onProgress?: (written: number) => void,
): void {
  let written = 0;
  while (written < buffer.length) {
    const n = fsApi.writeSync(fd, buffer, written, buffer.length - written);
    // A regular file never accepts 0 bytes without an error; guard against spinning forever.
    if (n <= 0) throw new Error(`write returned ${n} with ${buffer.length - written} bytes left`);
    written += n;
    onProgress?.(written);
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
