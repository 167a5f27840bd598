/**
 * Reading a session file for a sync and putting its merged content in place without losing
 * what a writer appends meanwhile (SPEC §14 M4). pi 1.6.0 takes no lock and opens the file with
 * O_APPEND for every entry, so a pi process may append at any moment:
 *
 * - when the merged content only adds lines after the file's bytes, they are appended
 *   (O_APPEND, one write, fsync): a line pi appends meanwhile lands before ours, never lost;
 * - otherwise the file is replaced atomically (temp file, fsync, rename, directory fsync; the
 *   temp name never ends in `.jsonl`), but only if, just before the rename, it is still the
 *   inode that was read and no shorter (compare and swap: else the caller merges again). It may
 *   have grown: pi appends to the path, and what it appended to the old inode up to the rename
 *   is read back through the descriptor the snapshot keeps open ({@link grownSince}) and
 *   merged in by the caller, which watches that descriptor until its sync is done;
 * - a missing file is created exclusively (never over one that appeared meanwhile).
 */

import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { nodeStoreFs, openRegularFile, writeFileAtomic } from "@pi-sessions/core/internal";

/** A session file as the sync read it: its bytes, and the inode and size they came from. */
export interface FileSnapshot {
  readonly path: string;
  /** `undefined` when the file does not exist. */
  readonly bytes: Buffer | undefined;
  /** The inode the bytes were read from (0 when missing). */
  readonly ino: number;
  /** The number of bytes read: the size the file must still have when it is replaced. */
  readonly size: number;
  /** Permission bits, kept by a replace. */
  readonly mode: number;
  /** The open file the bytes were read from, kept to see appends to the replaced inode. */
  readonly fd: number | undefined;
}

/** How a file was (or, dry, would be) brought to the merged content. */
export type FileChange = "unchanged" | "appended" | "replaced" | "created";

/** The file changed between the read and the write: merge again. */
export class FileMovedError extends Error {
  constructor(
    /** The file that changed. */
    readonly path: string,
  ) {
    super(`${path} changed while it was being synced`);
    this.name = "FileMovedError";
  }
}

/** Bytes `from`..end of an open file. */
function readFrom(fd: number, from: number): Buffer {
  const chunks: Buffer[] = [];
  for (let at = from; ; ) {
    const chunk = Buffer.allocUnsafe(1 << 16);
    const n = readSync(fd, chunk, 0, chunk.length, at);
    if (n === 0) return Buffer.concat(chunks);
    chunks.push(chunk.subarray(0, n));
    at += n;
  }
}

/** Reads `path` (missing: a snapshot without bytes); the caller closes it with {@link closeSnapshot}. */
export function readSnapshot(path: string): FileSnapshot {
  let fd: number;
  let stat: ReturnType<typeof fstatSync>;
  try {
    // Only a regular file is opened: a FIFO named `*.jsonl` would wait forever for a writer
    // (`NotRegularFileError`, a failed pair).
    ({ fd, stats: stat } = openRegularFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      return { path, bytes: undefined, ino: 0, size: 0, mode: 0o600, fd: undefined };
    }
    throw error;
  }
  // Read to the end as it is now, not to the size seen: the bytes are what the size check means.
  const bytes = readFrom(fd, 0);
  return { path, bytes, ino: stat.ino, size: bytes.length, mode: stat.mode & 0o777, fd };
}

/** Closes the file a snapshot keeps open. */
export function closeSnapshot(snapshot: FileSnapshot): void {
  if (snapshot.fd !== undefined) closeSync(snapshot.fd);
}

/** What writing `merged` over `snapshot` would do. */
export function changeFor(snapshot: FileSnapshot, merged: Buffer): FileChange {
  const { bytes } = snapshot;
  if (bytes === undefined) return "created";
  if (bytes.equals(merged)) return "unchanged";
  const extends_ = merged.length > bytes.length && merged.subarray(0, bytes.length).equals(bytes);
  return extends_ ? "appended" : "replaced";
}

/** Whether a file that was read as `snapshot` is still that file, possibly appended to. */
function unmoved(snapshot: FileSnapshot, now: { ino: number; size: number }): boolean {
  return now.ino === snapshot.ino && now.size >= snapshot.size;
}

/** Throws {@link FileMovedError} unless `path` is still the snapshot's file (grown or not). */
function checkUnmoved(snapshot: FileSnapshot): void {
  let now: { ino: number; size: number };
  try {
    now = statSync(snapshot.path);
  } catch {
    throw new FileMovedError(snapshot.path);
  }
  if (!unmoved(snapshot, now)) throw new FileMovedError(snapshot.path);
}

/**
 * The whole content of the snapshot's file (by its open descriptor, so after a replace: the old
 * inode) when it holds more than `known` bytes, else undefined.
 */
export function grownSince(snapshot: FileSnapshot, known: number): Buffer | undefined {
  if (snapshot.fd === undefined || fstatSync(snapshot.fd).size <= known) return undefined;
  return readFrom(snapshot.fd, 0);
}

/**
 * Brings the file of `snapshot` to `merged` and returns the change. After a replace, lines a
 * writer appended meanwhile are in the old inode: see {@link grownSince}. Throws
 * {@link FileMovedError} when the file is no longer the one read (merge again).
 */
export function commitFile(snapshot: FileSnapshot, merged: Buffer): FileChange {
  const change = changeFor(snapshot, merged);
  if (change === "unchanged") return change;
  if (change === "created") {
    mkdirSync(dirname(snapshot.path), { recursive: true, mode: 0o700 });
    try {
      writeFileAtomic(snapshot.path, merged, { exclusive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST")
        throw new FileMovedError(snapshot.path);
      throw error;
    }
    return change;
  }
  if (change === "appended") {
    const fd = openSync(snapshot.path, constants.O_WRONLY | constants.O_APPEND);
    try {
      // Grown since the read: pi appended; ours go after its lines (their parents are earlier).
      if (!unmoved(snapshot, fstatSync(fd))) throw new FileMovedError(snapshot.path);
      const tail = merged.subarray(snapshot.size);
      for (let at = 0; at < tail.length; ) at += writeSync(fd, tail, at, tail.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return change;
  }
  // The check runs right before the rename, after the temp file is written and fsynced.
  const fs = {
    ...nodeStoreFs,
    renameSync: (from: string, to: string) => {
      checkUnmoved(snapshot);
      nodeStoreFs.renameSync(from, to);
    },
  };
  writeFileAtomic(snapshot.path, merged, { mode: snapshot.mode, fs });
  return change;
}
