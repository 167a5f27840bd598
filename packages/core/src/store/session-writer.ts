import { constants } from "node:fs";
import { writeFileAtomic } from "./atomic-write.js";
import { encodeLine, recycleLine, tailOf } from "./line-bytes.js";
import { acquireLock, inProcessLockOwner, type Lock } from "./lock.js";
import { PathCheckSchedule } from "./path-check.js";
import { nodeStoreFs, quietly, type StoreFs, type StoreStats, writeAll } from "./store-fs.js";
import {
  assertSize,
  SessionConflictError,
  SessionFileDeletedError,
  unlessDeleted,
} from "./writer-errors.js";

export { SessionConflictError, SessionFileDeletedError } from "./writer-errors.js";

/**
 * When appends reach the disk (W9): `"never"` fsyncs no append (the reference's speed; one can
 * be lost on power failure), `"always"` every one. First and whole-file writes always fsync.
 */
export type Durability = "never" | "always";

/** Options of {@link SessionFileWriter}. */
export interface SessionWriterOptions {
  /** Per-append fsync policy (default `"never"`). */
  durability?: Durability;
  /** File-system calls (test seam; default `node:fs`). */
  fs?: StoreFs;
}

/** The last {@link SessionFileWriter} generation handed out in this process. */
let writerGeneration = 0;

/**
 * The single writer of one flushed session file (SPEC §6.3, §12): holds the lock (W7: no silent
 * fork between two writers), keeps an append-only fd opened without O_CREAT (W8: a deleted file is
 * not recreated; W21: no reopen per append), checks size and inode before every append (W7, W8),
 * never glues a line onto a torn tail (W1), undoes a failed append (W2), fsyncs per its durability
 * (W9: the fsync policy).
 */
export class SessionFileWriter {
  private readonly fsApi: StoreFs;
  private lock: Lock | undefined;
  private fd: number | undefined;
  /** When the tail check must `stat` the path as well as the fd. */
  private readonly pathCheck = new PathCheckSchedule();
  private readonly progress = { written: 0 };
  private closed = false;
  /** Set when a newer writer in this process took the file over: appends conflict for good. */
  private superseded = false;
  /** Creation order: only a newer writer may take a file over from, or reload after, another. */
  private readonly generation = ++writerGeneration;

  private constructor(
    readonly path: string,
    /** Bytes the file has as far as this process knows (what it last read or wrote). */
    private size: number,
    /** True when the file ends in an unfinished line: the next append writes `\n` first. */
    private needsNewline: boolean,
    private readonly options: SessionWriterOptions,
  ) {
    this.fsApi = options.fs ?? nodeStoreFs;
  }

  /** A pending session's first write (SPEC §6.2): the lock, then one atomic exclusive create. */
  static createNew(
    path: string,
    lines: readonly string[],
    options: SessionWriterOptions = {},
  ): SessionFileWriter {
    const writer = new SessionFileWriter(path, 0, false, options);
    writer.takeLock(false); // a new file has no earlier writer to take over from
    try {
      writer.writeWhole(lines, true);
    } catch (error) {
      writer.close();
      throw error;
    }
    return writer;
  }

  /**
   * A writer for a file loaded from disk. Does no IO (reads never write or lock, W13): the first
   * append or rewrite takes the lock and the fd, and checks the file still has `state.size` bytes.
   */
  static attach(
    path: string,
    state: { readonly size: number; readonly endsWithNewline: boolean },
    options: SessionWriterOptions = {},
  ): SessionFileWriter {
    const torn = state.size > 0 && !state.endsWithNewline;
    return new SessionFileWriter(path, state.size, torn, options);
  }

  get isOpen(): boolean {
    return this.fd !== undefined;
  }

  get isLocked(): boolean {
    return this.lock?.held === true;
  }

  /**
   * True when an older writer of this process holds the file, has appended since this one read
   * it, and the file is exactly what it left: only its complete lines are in between, so the
   * manager may reload them (any other change is a conflict the next append reports).
   */
  grownByThisProcess(): boolean {
    if (this.isLocked || this.closed || this.superseded || this.isOpen) return false;
    const holder = this.inProcessHolder();
    if (holder === undefined || holder.generation > this.generation) return false;
    return holder.size > this.size && holder.isExactlyOnDisk();
  }

  /** Replaces the file with `lines` atomically (W3, mode 0600) once the tail check passes. */
  rewrite(lines: readonly string[]): void {
    this.claim();
    this.check();
    this.writeWhole(lines, false);
  }

  /** Writes the whole file atomically (W3, mode 0600), then opens the fd to append to it. */
  private writeWhole(lines: readonly string[], exclusive: boolean): void {
    writeFileAtomic(this.path, lines, { exclusive, fs: this.fsApi });
    this.closeFd();
    [this.size, this.needsNewline] = tailOf(lines);
    try {
      this.open();
    } catch {
      // The file is committed, so this must not fail the write: the next append opens again
      // and throws the real error then.
    }
  }

  /** Closes the fd and releases the lock. Later appends throw; calling it again does nothing. */
  close(): void {
    this.closed = true;
    this.release();
  }

  /** Closes the fd and releases the lock; the next append takes them again after a check. */
  release(): void {
    this.closeFd();
    this.lock?.release();
    this.lock = undefined;
  }

  /** Another writer of this process that holds this file's lock now, if any. */
  private inProcessHolder(): SessionFileWriter | undefined {
    const holder = inProcessLockOwner(this.path, this.fsApi);
    return holder instanceof SessionFileWriter && holder !== this ? holder : undefined;
  }

  /**
   * Makes sure this writer may write and holds the lock. In this process the newest writer
   * takes the file over from an older one (pi never closes the manager it leaves on a resume),
   * which then conflicts; another process's lock is refused. A stale or older writer must not
   * dispossess the current one: the file is checked first, and no newer writer may hold it.
   */
  private claim(): void {
    if (this.closed) throw new Error(`Session file writer is closed: ${this.path}`);
    if (this.superseded) throw this.newerWriter("took the file over");
    if (this.isLocked) return;
    if (!this.isOpen) this.check();
    const newerHolds = (this.inProcessHolder()?.generation ?? 0) > this.generation;
    if (newerHolds) throw this.newerWriter("holds the file");
    this.takeLock();
  }

  private newerWriter(what: string): SessionConflictError {
    const detail = `a newer session manager in this process ${what}`;
    return new SessionConflictError(this.path, detail, true);
  }

  private takeLock(takeOver = true): void {
    this.lock = acquireLock(this.path, {
      fs: this.fsApi,
      takeOver,
      // A newer writer in this process has the file: let go of the fd; the lock is theirs.
      onLost: () => {
        this.superseded = true;
        this.lock = undefined;
        this.closeFd();
      },
      owner: this,
    });
  }

  /** Lock, fd and tail check before an append; returns the fd to write to. */
  private prepareAppend(): number {
    this.claim();
    const fd = this.fd;
    try {
      if (fd === undefined) return this.open();
      this.check();
      return fd;
    } catch (error) {
      // Someone else wrote the file, or it is gone: this writer can never append again, so it
      // must not keep others out either. Give the lock back.
      const deleted = fd === undefined && error instanceof SessionFileDeletedError;
      if (deleted || error instanceof SessionConflictError) this.release();
      throw error;
    }
  }

  /** Opens the file for appending *without* O_CREAT (W8) and checks its size. */
  private open(): number {
    const flags = constants.O_WRONLY | constants.O_APPEND;
    const fd = unlessDeleted(this.path, () => this.fsApi.openSync(this.path, flags));
    try {
      this.pathCheck.checked(this.fstatExpected(fd));
    } catch (error) {
      quietly(() => this.fsApi.closeSync(fd));
      throw error;
    }
    this.fd = fd;
    return fd;
  }

  /**
   * The tail check (W7, W8): the file has exactly the bytes we last left and, when open, the
   * path still names it (a path `stat` when {@link PathCheckSchedule} says; unopened, only that).
   */
  private check(): void {
    if (this.fd === undefined) {
      assertSize(this.path, this.statPath().size, this.size);
      return;
    }
    const stats = this.fstatExpected(this.fd);
    if (!this.pathCheck.due(stats)) return;
    const onDisk = this.statPath();
    const moved = onDisk.ino !== stats.ino || onDisk.dev !== stats.dev;
    if (moved) throw new SessionConflictError(this.path, "the path now names a different file");
    this.pathCheck.checked(stats);
  }

  /** True when the fd is open and the path names exactly the file this process left. */
  private isExactlyOnDisk(): boolean {
    if (this.fd === undefined || this.needsNewline) return false;
    this.pathCheck.dueNext(); // the path too, not only the fd
    try {
      this.check();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Appends `json` (JSON text without a newline) and `\n`. Throws a lock, deleted-file or conflict
   * error before writing, or the write's own error after undoing its partial bytes (W2): the
   * logical content is unchanged either way (SPEC §0.1 invariant 4). A torn tail's separator goes
   * in the same write, so one truncate undoes both; if the truncate fails, the real size is kept
   * and the next append starts with `\n` (W1). `opts.fsync` overrides the writer's durability.
   */
  appendRecord(json: string, opts?: { readonly fsync?: boolean }): void {
    const fd = this.prepareAppend();
    const fsync = opts?.fsync ?? this.options.durability === "always";
    const [bytes, size] = encodeLine(json, this.needsNewline);
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
      recycleLine(bytes, size);
    }
    this.size = before + size;
    this.needsNewline = false;
  }

  /** Closes the fd (if open); the state stays, so a later {@link open} checks against it. */
  private closeFd(): void {
    const fd = this.fd;
    if (fd !== undefined) quietly(() => this.fsApi.closeSync(fd));
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
