/**
 * Opening a session file for reading only when it is a regular file. A FIFO named `x.jsonl`
 * blocks `open` until some writer appears (forever, for a listing), a socket cannot be opened at
 * all, and a device may answer endlessly (`/dev/zero`) or act on being opened; none of them is a
 * session. So the path is `stat`ed first and nothing else is opened, and the open itself is
 * non-blocking, so a FIFO swapped in between the two calls is caught by `fstat` instead of
 * hanging the reader.
 */

import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";

/** What a `stat` or a directory entry tells about a path's type. */
export type FileKind = Pick<
  Stats,
  | "isFile"
  | "isDirectory"
  | "isFIFO"
  | "isSocket"
  | "isCharacterDevice"
  | "isBlockDevice"
  | "isSymbolicLink"
>;

/** What a `stat` (or a directory entry) says a path is, in words (`"a FIFO"`), for messages. */
export function fileTypeOf(stats: FileKind): string {
  if (stats.isFile()) return "a regular file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

/** Thrown instead of opening a path that is not a regular file (after symlinks are followed). */
export class NotRegularFileError extends Error {
  /** The path that was not opened. */
  readonly path: string;
  /** Why, without the path: `a FIFO (named pipe), not a regular file`. */
  readonly reason: string;

  constructor(path: string, stats: FileKind) {
    const reason = `${fileTypeOf(stats)}, not a regular file`;
    super(`${path}: ${reason}`);
    this.name = "NotRegularFileError";
    this.path = path;
    this.reason = reason;
  }
}

/** Read-only and non-blocking: opening a FIFO must never wait for a writer. */
const READ_NONBLOCK = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Opens `path` for reading if it is a regular file (a symlink to one is fine); returns the fd
 * and its `fstat`. Throws {@link NotRegularFileError} for anything else, and the fs error
 * (`ENOENT`, `EACCES`, `ELOOP`, …) when it cannot be looked at.
 */
export function openRegularFile(path: string): { readonly fd: number; readonly stats: Stats } {
  const before = statSync(path);
  if (!before.isFile()) throw new NotRegularFileError(path, before);
  const fd = openSync(path, READ_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(path, stats);
    return { fd, stats };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The whole of a regular file's bytes (`readFileSync` would block on a FIFO or read a device
 * forever); the size is what `fstat` said at the open, grown if the file grows meanwhile.
 */
export function readRegularFile(path: string): Buffer {
  const { fd, stats } = openRegularFile(path);
  try {
    // One byte more than the size, so the read that finds the end needs no bigger buffer.
    let buffer = Buffer.allocUnsafe(Math.max(stats.size + 1, 8 * 1024));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, length);
      if (n === 0) return buffer.subarray(0, length);
      length += n;
    }
  } finally {
    closeSync(fd);
  }
}
