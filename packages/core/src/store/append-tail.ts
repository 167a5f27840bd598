import { constants } from "node:fs";
import { closeQuietly, errorCode, type StoreFs, type StoreStats, writeAll } from "./store-fs.js";

/** Thrown when the file is not what this writer last left: another writer got in (W7). */
export class SessionConflictError extends Error {
  /** `detail` says what differed. */
  constructor(
    readonly path: string,
    detail: string,
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

/**
 * Appends between two path `stat`s when the fd's link count has not changed. The link count
 * (from the `fstat` every append needs for the size anyway) drops when the file is deleted or
 * renamed over, so the extra syscall is only needed to catch what it cannot see: a file system
 * that keeps an unlinked open file's count (NFS "silly rename") or a move of our file.
 */
const PATH_CHECK_EVERY = 64;

/**
 * Each appended line is encoded into one reused buffer: handing `write(2)` a string makes Node
 * flatten `json + "\n"` and encode it on every append (about 0.7 KB of garbage and a few
 * hundred ns). Appends are synchronous, so one buffer serves every writer; lines above
 * {@link SCRATCH_MAX} get their own so one huge line does not pin memory.
 */
const SCRATCH_BYTES = 64 * 1024;
const SCRATCH_MAX = 1024 * 1024;
let scratch: Buffer | undefined;

/** `call()` on the file at `path`, turning ENOENT into {@link SessionFileDeletedError}. */
function unlessDeleted<T>(path: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (errorCode(error) === "ENOENT") throw new SessionFileDeletedError(path);
    throw error;
  }
}

/** Throws {@link SessionConflictError} unless the file has exactly the bytes we last left. */
function assertSize(path: string, actual: number, expected: number): void {
  if (actual !== expected)
    throw new SessionConflictError(path, `${actual} bytes, expected ${expected}`);
}

/**
 * The open end of one session file as this process last left it: the append-only fd (opened
 * without O_CREAT, W8), the size and identity it must still have (W7), and whether it ends in
 * a torn line (W1). It checks and writes; who may write (the lock) is the writer's business.
 */
export class AppendTail {
  fd: number | undefined;
  private identity: StoreStats | undefined;
  private appendsSincePathCheck = 0;
  private readonly progress = { written: 0 };

  constructor(
    readonly path: string,
    private readonly fsApi: StoreFs,
    /** Bytes the file has as far as this process knows (what it last read or wrote). */
    public size: number,
    /** True when the file ends in an unfinished line: the next append writes `\n` first. */
    public needsNewline: boolean,
  ) {}

  /** Opens the file for appending *without* O_CREAT (W8) and checks its size. */
  open(): number {
    const flags = constants.O_WRONLY | constants.O_APPEND;
    const fd = unlessDeleted(this.path, () => this.fsApi.openSync(this.path, flags));
    try {
      this.identity = this.fstatExpected(fd);
      this.appendsSincePathCheck = 0;
    } catch (error) {
      closeQuietly(this.fsApi, fd);
      throw error;
    }
    this.fd = fd;
    return fd;
  }

  /** Opens the fd right after this process wrote the whole file. */
  openQuietly(): void {
    try {
      this.open();
    } catch {
      // The file is committed, so this must not fail the write: the next append opens again
      // and throws the real error then.
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
      assertSize(this.path, this.statPath().size, this.size);
      return;
    }
    const stats = this.fstatExpected(this.fd);
    const known = this.identity;
    const linked = known !== undefined && stats.nlink === known.nlink && stats.nlink > 0;
    if (linked && ++this.appendsSincePathCheck < PATH_CHECK_EVERY) return;
    const onDisk = this.statPath();
    if (onDisk.ino !== stats.ino || onDisk.dev !== stats.dev) {
      throw new SessionConflictError(this.path, "the path now names a different file");
    }
    this.identity = stats;
    this.appendsSincePathCheck = 0;
  }

  /** True when the fd is open and the path names exactly the file this process left. */
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
   * the same write as the line, so one truncate undoes both; a failed write is undone (W2):
   * truncated back, or, if even that fails, remembered as the bytes now on disk, so the next
   * append checks against the real size and starts with `\n` after an unfinished line (W1).
   */
  write(fd: number, text: string, trail: boolean, fsync: boolean): void {
    const lead = this.needsNewline;
    const size = Buffer.byteLength(text, "utf8") + (lead ? 1 : 0) + (trail ? 1 : 0);
    // Taken out of the pool while in use: a nested append (a test's fs hook) gets its own.
    const bytes =
      size <= SCRATCH_MAX && scratch !== undefined && scratch.length >= size
        ? scratch
        : Buffer.allocUnsafe(size <= SCRATCH_MAX ? Math.max(SCRATCH_BYTES, size) : size);
    if (bytes === scratch) scratch = undefined;
    let at = 0;
    if (lead) bytes[at++] = 0x0a;
    at += bytes.write(text, at, "utf8");
    if (trail) bytes[at] = 0x0a;
    const before = this.size;
    try {
      writeAll(this.fsApi, fd, bytes, size, this.progress);
      if (fsync) this.fsApi.fsyncSync(fd);
    } catch (error) {
      const written = this.progress.written;
      if (written > 0) {
        try {
          this.fsApi.ftruncateSync(fd, before);
        } catch {
          this.size = before + written;
          this.needsNewline = bytes[written - 1] !== 0x0a;
        }
      }
      throw error;
    } finally {
      if (size <= SCRATCH_MAX) scratch = bytes;
    }
    this.size = before + size;
    if (size > 0) this.needsNewline = bytes[size - 1] !== 0x0a;
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

  private statPath(): StoreStats {
    return unlessDeleted(this.path, () => this.fsApi.statSync(this.path));
  }

  /** `fstat` of the fd, which must have the size we last left (a foreign append changes it). */
  private fstatExpected(fd: number): StoreStats {
    const stats = this.fsApi.fstatSync(fd);
    assertSize(this.path, stats.size, this.size);
    return stats;
  }
}
