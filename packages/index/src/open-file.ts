/**
 * Opening a session file for reading, only when it is a regular file: a FIFO, socket or device
 * named `*.jsonl` is never opened (opening a FIFO for reading waits for a writer forever, and
 * opening a device may do anything). `stat` is asked first; the open itself does not block
 * (were the file swapped for a FIFO after the stat), and `fstat` confirms it is the same
 * regular file.
 */

import { closeSync, constants, fstatSync, openSync, type Stats, statSync } from "node:fs";

/** Flags of every open: read-only, and never waiting (a no-op for a regular file's reads). */
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** The open file and its stat, or `null` when it is gone, unreadable or not a regular file. */
export function openRegular(path: string): { fd: number; stats: Stats } | null {
  let before: Stats | undefined;
  try {
    before = statSync(path, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (before === undefined || !before.isFile()) return null;
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile() && stats.ino === before.ino && stats.dev === before.dev)
      return { fd, stats };
  } catch {
    // Fall through: closed below and reported as not there.
  }
  closeSync(fd);
  return null;
}

/**
 * Runs `use` on the file open for reading, closing it after; `gone()` when it cannot be opened
 * or is not a regular file (both ways a listing says it is no session).
 */
export function withRegularFile<T>(
  path: string,
  gone: () => T,
  use: (fd: number, stats: Stats) => T,
): T {
  const opened = openRegular(path);
  if (opened === null) return gone();
  try {
    return use(opened.fd, opened.stats);
  } finally {
    closeSync(opened.fd);
  }
}
