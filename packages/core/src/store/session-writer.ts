import { AppendTail, SessionConflictError, SessionFileDeletedError } from "./append-tail.js";
import { writeFileAtomic } from "./atomic-write.js";
import { acquireLock, inProcessLockOwner, type Lock, type LockOptions } from "./lock.js";
import { FILE_MODE } from "./paths.js";
import { nodeStoreFs, type StoreFs } from "./store-fs.js";

// The writer's errors live with the checks that throw them; callers import them from here.
export { SessionConflictError, SessionFileDeletedError } from "./append-tail.js";

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

/** Per-call options of an append: `fsync` overrides the writer's durability. */
type AppendOptions = { fsync?: boolean };

/** Total UTF-8 size of `chunks`. */
function chunksByteLength(chunks: readonly string[]): number {
  let total = 0;
  for (const chunk of chunks) total += Buffer.byteLength(chunk, "utf8");
  return total;
}

/** True when the concatenation of `chunks` is non-empty and does not end in `\n`. */
function chunksNeedNewline(chunks: readonly string[]): boolean {
  for (let i = chunks.length - 1; i >= 0; i--) {
    const chunk = chunks[i] ?? "";
    if (chunk.length > 0) return !chunk.endsWith("\n");
  }
  return false;
}

/** The last {@link SessionFileWriter} generation handed out in this process. */
let writerGeneration = 0;

/**
 * The single writer of one flushed session file (SPEC §6.3, §12). It keeps one append-only fd
 * open (W21), holds the advisory lock (W7), checks before every append that the file still has
 * the size and inode it last left (W7, W8), never glues a line onto a torn tail (W1), undoes a
 * failed append (W2), and fsyncs per its durability (W9); the fd and those checks are its
 * {@link AppendTail}. Nothing it does recreates a deleted file (W8). All methods are
 * synchronous, like the reference.
 */
export class SessionFileWriter {
  /** The session file. */
  readonly path: string;
  private readonly fsApi: StoreFs;
  private readonly options: SessionWriterOptions;
  private readonly tail: AppendTail;
  private lock: Lock | undefined;
  private closed = false;
  /** Set when a newer writer in this process took the file over: appends conflict for good. */
  private superseded = false;
  /**
   * Order of creation among the writers of this process: a manager opened later has a higher
   * one. Only a newer writer may take a file over from, or reload after, the one holding it.
   */
  private readonly generation = ++writerGeneration;

  private constructor(
    path: string,
    size: number,
    needsNewline: boolean,
    options: SessionWriterOptions,
  ) {
    this.path = path;
    this.options = options;
    this.fsApi = options.fs ?? nodeStoreFs;
    this.tail = new AppendTail(path, this.fsApi, size, needsNewline);
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
      chunksNeedNewline(lines),
      options,
    );
    writer.takeLock(false); // a new file has no earlier writer to take over from
    try {
      writeFileAtomic(path, lines, writer.atomicOptions(true));
    } catch (error) {
      writer.close();
      throw error;
    }
    writer.tail.openQuietly();
    return writer;
  }

  /**
   * A writer for a file loaded from disk. Does no IO: reads never write or lock (W13); the lock
   * and the fd are taken by the first append or rewrite, which also checks the file still has
   * `state.size` bytes.
   */
  static attach(
    path: string,
    state: { readonly size: number; readonly endsWithNewline: boolean },
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
    return this.tail.size;
  }

  /** True while the append fd is open. */
  get isOpen(): boolean {
    return this.tail.fd !== undefined;
  }

  /** Whether the file as this writer knows it ends with `\n` (else the next append adds one). */
  get endsWithNewline(): boolean {
    return !this.tail.needsNewline;
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
    if (this.isLocked || this.closed || this.superseded || this.isOpen) return false;
    const holder = this.inProcessHolder();
    if (holder === undefined || holder.generation > this.generation) return false;
    return holder.tail.size > this.tail.size && holder.tail.isExactlyOnDisk();
  }

  /**
   * Appends one line (which should end in `\n`). Throws {@link SessionLockedError},
   * {@link SessionFileDeletedError} or {@link SessionConflictError} before writing anything, or
   * the write's own error after undoing its partial bytes; in every case the file's logical
   * content is unchanged (SPEC §0.1 invariant 4).
   */
  append(line: string, opts?: AppendOptions): void {
    const fd = this.prepareAppend();
    this.tail.write(fd, line, false, this.fsyncs(opts));
  }

  /**
   * Appends one record: `json` (a JSON text without a newline) and `\n`, exactly as
   * {@link append} would append `json + "\n"`, without building that string.
   */
  appendRecord(json: string, opts?: AppendOptions): void {
    const fd = this.prepareAppend();
    this.tail.write(fd, json, true, this.fsyncs(opts));
  }

  /**
   * Replaces the whole file (migration, empty-file initialisation) atomically (W3) with
   * `lines`, keeping mode 0600, after checking nobody else changed it; takes the lock if it is
   * not held yet, then reopens the fd on the new file.
   */
  rewrite(lines: readonly string[]): void {
    this.assertCurrent();
    if (!this.isLocked) {
      // Before a takeover: a stale or older writer must not dispossess a current one.
      this.tail.check();
      this.assertNotOlderThanHolder();
      this.takeLock();
    }
    this.tail.check();
    writeFileAtomic(this.path, lines, this.atomicOptions(false));
    this.tail.replaced(chunksByteLength(lines), chunksNeedNewline(lines));
  }

  /** Closes the fd and releases the lock. Later appends throw; calling it again does nothing. */
  close(): void {
    this.closed = true;
    this.releaseLock();
  }

  /**
   * Closes the fd and releases the lock but stays usable: the next append takes them again
   * after checking the file. A writer that was taken over stays refused.
   */
  release(): void {
    this.releaseLock();
  }

  /** Another writer of this process that holds this file's lock now, if any. */
  private inProcessHolder(): SessionFileWriter | undefined {
    const holder = inProcessLockOwner(this.path, {
      fs: this.fsApi,
      staleMs: this.options.lock?.staleMs,
    });
    return holder instanceof SessionFileWriter && holder !== this ? holder : undefined;
  }

  /**
   * Before this writer takes the lock: a writer of this process created after this one holds
   * the file, so this one is the older manager and must conflict rather than take it over.
   */
  private assertNotOlderThanHolder(): void {
    const holder = this.inProcessHolder();
    if (holder !== undefined && holder.generation > this.generation) {
      throw new SessionConflictError(
        this.path,
        "a newer session manager in this process holds the file",
      );
    }
  }

  private fsyncs(opts: AppendOptions | undefined): boolean {
    return opts?.fsync ?? this.options.durability === "always";
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
    this.tail.closeFd();
  }

  /** Lock, fd and tail check before an append; returns the fd to write to. */
  private prepareAppend(): number {
    this.assertCurrent();
    // Checked before taking the lock so that a stale writer of this process cannot take the
    // file over from the current one (its view is older: it must conflict instead).
    if (!this.isLocked) {
      if (!this.isOpen) this.tail.check();
      this.assertNotOlderThanHolder();
    }
    this.takeLock();
    const opening = !this.isOpen;
    try {
      return this.tail.ready();
    } catch (error) {
      // Someone else wrote the file, or it is gone: this writer can never append again, so it
      // must not keep others out either. Give the lock back.
      if (error instanceof SessionConflictError) this.releaseLock();
      else if (opening && error instanceof SessionFileDeletedError) this.releaseLock();
      throw error;
    }
  }

  /** Closes the fd and releases the lock, leaving the writer reusable (unless closed). */
  private releaseLock(): void {
    this.tail.closeFd();
    this.lock?.release();
    this.lock = undefined;
  }
}
