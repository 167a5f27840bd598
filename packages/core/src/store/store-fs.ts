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

/** `node:fs` in the shape of {@link StoreFs}. */
export const nodeStoreFs = {
  openSync: (path: string, flags: number, mode?: number): number => fs.openSync(path, flags, mode),
  /** Writes `length` bytes of `buffer` from `offset`; returns the bytes written. */
  writeSync: (fd: number, buffer: Uint8Array, offset: number, length: number): number =>
    fs.writeSync(fd, buffer, offset, length),
  fsyncSync: (fd: number): void => fs.fsyncSync(fd),
  closeSync: (fd: number): void => fs.closeSync(fd),
  ftruncateSync: (fd: number, length: number): void => fs.ftruncateSync(fd, length),
  fstatSync: (fd: number): StoreStats => fs.fstatSync(fd),
  fchmodSync: (fd: number, mode: number): void => fs.fchmodSync(fd, mode),
  fchownSync: (fd: number, uid: number, gid: number): void => fs.fchownSync(fd, uid, gid),
  statSync: (path: string): StoreStats => fs.statSync(path),
  renameSync: (from: string, to: string): void => fs.renameSync(from, to),
  linkSync: (existing: string, to: string): void => fs.linkSync(existing, to),
  unlinkSync: (path: string): void => fs.unlinkSync(path),
  readFileSync: (path: string): string => fs.readFileSync(path, "utf8"),
  utimesSync: (path: string, atime: Date, mtime: Date): void => fs.utimesSync(path, atime, mtime),
};

/**
 * The synchronous file-system calls the store makes: a test seam, so a test can inject ENOSPC
 * half-way through a write or count fsyncs, which real files cannot do on demand.
 */
export type StoreFs = typeof nodeStoreFs;

/** The `code` of a Node system error (`ENOENT`, `EEXIST`, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Writes the first `length` bytes of `buffer` at the fd's position, looping over short writes.
 * On a failure `progress.written` says how many bytes went out, so a caller can undo them.
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

/** Runs a cleanup call (a close, an unlink) on a path that is failing or tearing down. */
export function quietly(cleanup: () => void): void {
  try {
    cleanup();
  } catch {
    // The original error (if any) is the one worth reporting; an fd is unusable either way, and
    // what is left on disk is a temp or lock file.
  }
}
