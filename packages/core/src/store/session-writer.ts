import { constants } from "node:fs";
import { writeFileAtomic } from "./atomic-write.js";
import { encodeLine, lineByteLength, releaseLine } from "./line-bytes.js";
import { acquireLock, inProcessLockOwner, type Lock, type LockOptions } from "./lock.js";
import { FILE_MODE } from "./paths.js";
import {
  closeQuietly,
  errorCode,
  type FileIdentity,
  nodeStoreFs,
  type StoreFs,
} from "./store-fs.js";
import {
  assertPathNames,
  assertUnopenedSize,
  chunksByteLength,
  chunksEndWithNewline,
  fstatExpected,
  SessionConflictError,
  SessionFileDeletedError,
} from "./tail-check.js";

// The writer's errors live with the checks that throw them; callers import them from here.
export { SessionConflictError, SessionFileDeletedError } from "./tail-check.js";

/**
 * When appends reach the disk (W9). `"never"`: one `write` per append, no fsync (the
 * reference's speed; an acknowledged append can be lost on power failure). `"always"`: fsync
 * after every append. The first write and whole-file writes fsync in both modes.
 */
export type Durability = "never" | "always";

/** Options of {@link SessionFileWriter}. */
export interface SessionWriterOptions {
  /** Per-append fsync policy (default `"never"`). */
  durability?: Durability;
  /** Mode of files the writer creates (default 0600, W22). */
  mode?: number;
  /** Options of the advisory lock (stale time). */
  lock?: Omit<LockOptions, "fs">;
  /** File-system calls (test seam; default `node:fs`). */
  fs?: StoreFs;
}

/** What a load learned about a file the writer attaches to. */
export interface AttachedFileState {
  /** Size in bytes of the file as read. */
  readonly size: number;
  /** False when the file (if not empty) lacks a final `\n`: the next append writes one first. */
  readonly endsWithNewline: boolean;
}

/** Per-call options of {@link SessionFileWriter.append}. */
export interface AppendOptions {
  /** fsync this append (overrides the writer's durability). */
  fsync?: boolean;
}

/**
 * Appends between two path `stat`s when the fd's link count has not changed. The link count
 * (from the `fstat` every append needs for the size anyway) drops when the file is deleted or
 * renamed over, so the extra syscall is only needed to catch what it cannot see: a file system
 * that keeps an unlinked open file's count (NFS "silly rename") or a move of our file.
 */
const PATH_CHECK_EVERY = 64;

/**
 * The single writer of one flushed session file (SPEC §6.3, §12). It keeps one append-only fd
 * open (W21), holds the advisory lock (W7), checks before every append that the file still has
 * the size and inode it last left (W7, W8), never glues a line onto a torn tail (W1), undoes a
 * failed append (W2), and fsyncs per its durability (W9). Nothing it does recreates a deleted
 * file (W8). All methods are synchronous, like the reference.
 */
export class SessionFileWriter {
  /** The session file. */
  readonly path: string;
  private readonly fsApi: StoreFs;
  private readonly options: SessionWriterOptions;
  private fd: number | undefined;
  private identity: (FileIdentity & { nlink: number }) | undefined;
  private appendsSincePathCheck = 0;
  private expectedSize: number;
  private needsNewline: boolean;
  private lock: Lock | undefined;
  private closed = false;
  /** Set when a newer writer in this process took the file over: appends conflict for good. */
  private superseded = false;

  private constructor(
    path: string,
    size: number,
    needsNewline: boolean,
    options: SessionWriterOptions,
  ) {
    this.path = path;
    this.options = options;
    this.fsApi = options.fs ?? nodeStoreFs;
    this.expectedSize = size;
    this.needsNewline = needsNewline;
  }

  /**
   * The first write of a pending session (SPEC §6.2): takes the lock, then creates `path` with
   * the header and every line so far (each ending in `\n`) in one atomic exclusive create
   * (fails if the file exists; a crash never leaves half a file), fsynced, mode 0600.
   */
  static createNew(
    path: string,
    lines: readonly string[],
    options: SessionWriterOptions = {},
  ): SessionFileWriter {
    const writer = new SessionFileWriter(
      path,
      chunksByteLength(lines),
      !chunksEndWithNewline(lines),
      options,
    );
    writer.takeLock(false); // a new file has no earlier writer to take over from
    try {
      writeFileAtomic(path, lines, writer.atomicOptions(true));
    } catch (error) {
      writer.close();
      throw error;
    }
    writer.openQuietly();
    return writer;
  }

  /**
   * A writer for a file loaded from disk. Does no IO: reads never write or lock (W13); the lock
   * and the fd are taken by the first append or rewrite, which also checks the file still has
   * `state.size` bytes.
   */
  static attach(
    path: string,
    state: AttachedFileState,
    options: SessionWriterOptions = {},
  ): SessionFileWriter {
    return new SessionFileWriter(
      path,
      state.size,
      state.size > 0 && !state.endsWithNewline,
      options,
    );
  }

  /** Bytes the file has as far as this writer knows (what it last read or wrote). */
  get size(): number {
    return this.expectedSize;
  }

  /** True while the append fd is open. */
  get isOpen(): boolean {
    return this.fd !== undefined;
  }

  /** Whether the file as this writer knows it ends with `\n` (else the next append adds one). */
  get endsWithNewline(): boolean {
    return !this.needsNewline;
  }

  /** True while this writer holds the session's lock. */
  get isLocked(): boolean {
    return this.lock?.held === true;
  }

  /**
   * True when this writer does not hold the file, and the writer of this process that holds it
   * has appended since this one last read it: the file is exactly what that writer left (size
   * and inode), and longer than this writer knows. Only complete lines of our own writer can
   * be in between, so the manager may reload them (see `SessionManager`); any other change is
   * a conflict, which the next append reports. Does no IO while this writer holds the lock.
   */
  grownByThisProcess(): boolean {
    if (this.isLocked || this.closed || this.superseded || this.fd !== undefined) return false;
    const holder = inProcessLockOwner(this.path, {
      fs: this.fsApi,
      staleMs: this.options.lock?.staleMs,
    });
    if (!(holder instanceof SessionFileWriter) || holder === this || holder.fd === undefined) {
      return false;
    }
    if (holder.needsNewline || holder.expectedSize <= this.expectedSize) return false;
    try {
      const onDisk = this.fsApi.statSync(this.path);
      const open = this.fsApi.fstatSync(holder.fd);
      return (
        onDisk.size === holder.expectedSize &&
        open.size === onDisk.size &&
        onDisk.ino === open.ino &&
        onDisk.dev === open.dev
      );
    } catch {
      return false; // the next append reports what is wrong with the file
    }
  }

  /**
   * Appends one line (which should end in `\n`). Throws {@link SessionLockedError},
   * {@link SessionFileDeletedError} or {@link SessionConflictError} before writing anything, or
   * the write's own error after undoing its partial bytes; in every case the file's logical
   * content is unchanged (SPEC §0.1 invariant 4).
   */
  append(line: string, opts?: AppendOptions): void {
    this.appendText(line, false, opts);
  }

  /**
   * Appends one record: `json` (a JSON text without a newline) and `\n`, exactly as
   * {@link append} would append `json + "\n"`, without building that string.
   */
  appendRecord(json: string, opts?: AppendOptions): void {
    this.appendText(json, true, opts);
  }

  /** {@link append} of `text`, followed by `\n` when `trail`. */
  private appendText(text: string, trail: boolean, opts: AppendOptions | undefined): void {
    const fd = this.prepareAppend();
    // The separator for a torn tail goes in the same write as the line, so one truncate undoes both.
    const lead = this.needsNewline;
    const size = lineByteLength(text, lead, trail);
    const bytes = encodeLine(text, lead, trail, size);
    const before = this.expectedSize;
    let written = 0;
    try {
      while (written < size) {
        const n = this.fsApi.writeSync(fd, bytes, written, size - written);
        // A regular file never accepts 0 bytes without an error; guard against spinning forever.
        if (n <= 0) throw new Error(`write returned ${n} with ${size - written} bytes left`);
        written += n;
      }
      if (opts?.fsync ?? this.options.durability === "always") this.fsApi.fsyncSync(fd);
    } catch (error) {
      if (written > 0) this.undo(fd, before, bytes[written - 1] === 0x0a, written);
      throw error;
    } finally {
      releaseLine(bytes);
    }
    this.expectedSize = before + size;
    if (size > 0) this.needsNewline = bytes[size - 1] !== 0x0a;
  }

  /**
   * Replaces the whole file (migration, empty-file initialisation) atomically (W3) with
   * `lines`, keeping mode 0600, after checking nobody else changed it; takes the lock if it is
   * not held yet, then reopens the fd on the new file.
   */
  rewrite(lines: readonly string[]): void {
    this.assertCurrent();
    if (!this.isLocked) {
      this.checkUnchanged(); // before a takeover: a stale writer must not dispossess a current one
      this.takeLock();
    }
    this.checkUnchanged();
    writeFileAtomic(this.path, lines, this.atomicOptions(false));
    if (this.fd !== undefined) closeQuietly(this.fsApi, this.fd);
    this.fd = undefined;
    this.identity = undefined;
    this.expectedSize = chunksByteLength(lines);
    this.needsNewline = !chunksEndWithNewline(lines);
    this.openQuietly();
  }

  /** Closes the fd and releases the lock. Later appends throw; calling it again does nothing. */
  close(): void {
    this.closed = true;
    if (this.fd !== undefined) closeQuietly(this.fsApi, this.fd);
    this.fd = undefined;
    this.lock?.release();
    this.lock = undefined;
  }

  private atomicOptions(exclusive: boolean): { mode: number; exclusive: boolean; fs: StoreFs } {
    return { mode: this.options.mode ?? FILE_MODE, exclusive, fs: this.fsApi };
  }

  /** Throws unless this writer may still write: not closed, not taken over. */
  private assertCurrent(): void {
    if (this.closed) throw new Error(`Session file writer is closed: ${this.path}`);
    if (this.superseded) {
      throw new SessionConflictError(
        this.path,
        "a newer session manager in this process took the file over",
      );
    }
  }

  /** The file still has the bytes this writer last left (and, when open, is still our file). */
  private checkUnchanged(): void {
    if (this.fd !== undefined) this.checkTail(this.fd);
    else assertUnopenedSize(this.fsApi, this.path, this.expectedSize);
  }

  /**
   * Takes the lock if not held. Within this process the newest writer takes the file over
   * from an older one (pi never closes the manager it leaves when it resumes a session), which
   * then loses its fd and conflicts on its next append; another process's lock is refused.
   */
  private takeLock(takeOver = true): void {
    if (this.lock?.held) return;
    this.lock = acquireLock(this.path, {
      ...this.options.lock,
      fs: this.fsApi,
      takeOver,
      onLost: () => this.onTakenOver(),
      owner: this,
    });
  }

  /** A newer writer in this process has the file: let go of the fd; the lock is already theirs. */
  private onTakenOver(): void {
    this.superseded = true;
    this.lock = undefined;
    if (this.fd !== undefined) closeQuietly(this.fsApi, this.fd);
    this.fd = undefined;
  }

  /** Lock, fd and tail check before an append; returns the fd to write to. */
  private prepareAppend(): number {
    this.assertCurrent();
    // Checked before taking the lock so that a stale writer of this process cannot take the
    // file over from the current one (its view is older: it must conflict instead).
    if (!this.isLocked && this.fd === undefined) {
      assertUnopenedSize(this.fsApi, this.path, this.expectedSize);
    }
    this.takeLock();
    try {
      if (this.fd === undefined) return this.open();
      this.checkTail(this.fd);
      return this.fd;
    } catch (error) {
      // Someone else wrote the file: this writer's view is stale and it can never append
      // again, so it must not keep others out either. Give the lock back.
      if (error instanceof SessionConflictError) this.releaseLock();
      throw error;
    }
  }

  /** Closes the fd and releases the lock, leaving the writer reusable (not closed). */
  private releaseLock(): void {
    if (this.fd !== undefined) closeQuietly(this.fsApi, this.fd);
    this.fd = undefined;
    this.lock?.release();
    this.lock = undefined;
  }

  /**
   * Opens the file for appending *without* O_CREAT (W8) and checks its size. A missing file
   * releases the lock (there is nothing left to protect) and throws.
   */
  private open(): number {
    let fd: number;
    try {
      fd = this.fsApi.openSync(this.path, constants.O_WRONLY | constants.O_APPEND);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
      this.lock?.release();
      this.lock = undefined;
      throw new SessionFileDeletedError(this.path);
    }
    try {
      const stats = fstatExpected(this.fsApi, this.path, fd, this.expectedSize);
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
   * Opens the fd right after this writer wrote the whole file. The file is committed, so a
   * failure here must not report the write as failed; the next append retries and reports it.
   */
  private openQuietly(): void {
    try {
      this.open();
    } catch {
      // Deferred, not lost: prepareAppend() opens again and throws the real error then.
    }
  }

  /**
   * The tail check (W7, W8): the open file has exactly the bytes we last left, and the path
   * still names it (not deleted, not replaced by someone's rename). One `fstat` per append; the
   * path is `stat`ed only when the link count moved, or every {@link PATH_CHECK_EVERY} appends.
   */
  private checkTail(fd: number): void {
    const stats = fstatExpected(this.fsApi, this.path, fd, this.expectedSize);
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
   * Undoes a partial append (W2): truncate back to `before`. If even that fails, remember what
   * is on disk, the first `written` bytes of the line, so the next append checks against the
   * real size and starts with `\n` when the fragment is an unfinished line (W1).
   */
  private undo(fd: number, before: number, endsWithNewline: boolean, written: number): void {
    try {
      this.fsApi.ftruncateSync(fd, before);
    } catch {
      this.expectedSize = before + written;
      this.needsNewline = !endsWithNewline;
    }
  }
}
