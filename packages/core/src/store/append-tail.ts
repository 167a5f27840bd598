import { constants } from "node:fs";
import { encodeLine, lineByteLength, releaseLine } from "./line-bytes.js";
import { closeQuietly, errorCode, type FileIdentity, type StoreFs } from "./store-fs.js";
import {
  assertPathNames,
  assertUnopenedSize,
  fstatExpected,
  SessionFileDeletedError,
} from "./tail-check.js";

/**
 * Appends between two path `stat`s when the fd's link count has not changed. The link count
 * (from the `fstat` every append needs for the size anyway) drops when the file is deleted or
 * renamed over, so the extra syscall is only needed to catch what it cannot see: a file system
 * that keeps an unlinked open file's count (NFS "silly rename") or a move of our file.
 */
const PATH_CHECK_EVERY = 64;

/**
 * The open end of one session file as this process last left it: the append-only fd (opened
 * without O_CREAT, W8), the size and identity it must still have (W7), and whether it ends in
 * a torn line (W1). It checks and writes; who may write (the lock) is the writer's business.
 */
export class AppendTail {
  /** The append fd, once opened. */
  fd: number | undefined;
  /** Bytes the file has as far as this process knows (what it last read or wrote). */
  size: number;
  /** True when the file ends in an unfinished line: the next append writes `\n` first. */
  needsNewline: boolean;
  private identity: (FileIdentity & { nlink: number }) | undefined;
  private appendsSincePathCheck = 0;

  constructor(
    readonly path: string,
    private readonly fsApi: StoreFs,
    size: number,
    needsNewline: boolean,
  ) {
    this.size = size;
    this.needsNewline = needsNewline;
  }

  /**
   * Opens the file for appending *without* O_CREAT (W8) and checks its size. Throws
   * {@link SessionFileDeletedError} when the file is gone, or a conflict when it changed.
   */
  open(): number {
    let fd: number;
    try {
      fd = this.fsApi.openSync(this.path, constants.O_WRONLY | constants.O_APPEND);
    } catch (error) {
      if (errorCode(error) === "ENOENT") throw new SessionFileDeletedError(this.path);
      throw error;
    }
    try {
      const stats = fstatExpected(this.fsApi, this.path, fd, this.size);
      this.identity = { dev: stats.dev, ino: stats.ino, nlink: stats.nlink };
      this.appendsSincePathCheck = 0;
    } catch (error) {
      closeQuietly(this.fsApi, fd);
      throw error;
    }
    this.fd = fd;
    return fd;
  }

  /**
   * Opens the fd right after this process wrote the whole file. The file is committed, so a
   * failure here must not report the write as failed; the next append retries and reports it.
   */
  openQuietly(): void {
    try {
      this.open();
    } catch {
      // Deferred, not lost: the next append opens again and throws the real error then.
    }
  }

  /** The open fd, checked (see {@link check}), or a newly opened one. */
  ready(): number {
    if (this.fd === undefined) return this.open();
    this.check();
    return this.fd;
  }

  /**
   * The tail check (W7, W8): the file has exactly the bytes we last left and, when open, the
   * path still names it (not deleted, not replaced by someone's rename). One `fstat` per
   * append; the path is `stat`ed only when the link count moved, or every
   * {@link PATH_CHECK_EVERY} appends. Unopened: one `stat` of the path.
   */
  check(): void {
    if (this.fd === undefined) {
      assertUnopenedSize(this.fsApi, this.path, this.size);
      return;
    }
    const stats = fstatExpected(this.fsApi, this.path, this.fd, this.size);
    const known = this.identity;
    this.appendsSincePathCheck++;
    if (
      known !== undefined &&
      stats.nlink === known.nlink &&
      stats.nlink > 0 &&
      this.appendsSincePathCheck < PATH_CHECK_EVERY
    ) {
      return;
    }
    assertPathNames(this.fsApi, this.path, stats);
    this.identity = { dev: stats.dev, ino: stats.ino, nlink: stats.nlink };
    this.appendsSincePathCheck = 0;
  }

  /**
   * True when the fd is open and the path names exactly the file this process left: same
   * inode, and the size it last wrote. Never throws (false on any error).
   */
  isExactlyOnDisk(): boolean {
    if (this.fd === undefined || this.needsNewline) return false;
    try {
      const onDisk = this.fsApi.statSync(this.path);
      const open = this.fsApi.fstatSync(this.fd);
      return (
        onDisk.size === this.size &&
        open.size === this.size &&
        onDisk.ino === open.ino &&
        onDisk.dev === open.dev
      );
    } catch {
      return false;
    }
  }

  /**
   * Writes `text` (plus `\n` when `trail`) to the fd. The separator for a torn tail goes in
   * the same write as the line, so one truncate undoes both; a failed write is undone (W2).
   */
  write(fd: number, text: string, trail: boolean, fsync: boolean): void {
    const lead = this.needsNewline;
    const size = lineByteLength(text, lead, trail);
    const bytes = encodeLine(text, lead, trail, size);
    const before = this.size;
    // Read before the buffer goes back to the shared pool in `finally`.
    const endsWithNewline = size > 0 && bytes[size - 1] === 0x0a;
    let written = 0;
    try {
      while (written < size) {
        const n = this.fsApi.writeSync(fd, bytes, written, size - written);
        // A regular file never accepts 0 bytes without an error; guard against spinning forever.
        if (n <= 0) throw new Error(`write returned ${n} with ${size - written} bytes left`);
        written += n;
      }
      if (fsync) this.fsApi.fsyncSync(fd);
    } catch (error) {
      if (written > 0) this.undo(fd, before, bytes[written - 1] === 0x0a, written);
      throw error;
    } finally {
      releaseLine(bytes);
    }
    this.size = before + size;
    if (size > 0) this.needsNewline = !endsWithNewline;
  }

  /** After this process replaced the whole file: the new size and tail, fd reopened. */
  replaced(size: number, needsNewline: boolean): void {
    this.closeFd();
    this.identity = undefined;
    this.size = size;
    this.needsNewline = needsNewline;
    this.openQuietly();
  }

  /** Closes the fd (if open); the state stays, so a later {@link open} checks against it. */
  closeFd(): void {
    if (this.fd !== undefined) closeQuietly(this.fsApi, this.fd);
    this.fd = undefined;
  }

  /**
   * Undoes a partial append (W2): truncate back to `before`. If even that fails, remember what
   * is on disk, the first `written` bytes of the line, so the next append checks against the
   * real size and starts with `\n` when the fragment is an unfinished line (W1).
   */
  private undo(fd: number, before: number, endsWithNewline: boolean, written: number): void {
    try {
      this.fsApi.ftruncateSync(fd, before);
    } catch {
      this.size = before + written;
      this.needsNewline = !endsWithNewline;
    }
  }
}
