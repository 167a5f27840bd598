import { AppendTail, SessionConflictError, SessionFileDeletedError } from "./append-tail.js";
import { writeFileAtomic } from "./atomic-write.js";
import { acquireLock, inProcessLockOwner, type Lock } from "./lock.js";
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
  /** File-system calls (test seam; default `node:fs`). */
  fs?: StoreFs;
}

/** Per-call options of an append: `fsync` overrides the writer's durability. */
type AppendOptions = { fsync?: boolean };

/** Total UTF-8 size of `lines` and whether they end in an unfinished line. */
function tailOf(lines: readonly string[]): [size: number, needsNewline: boolean] {
  let size = 0;
  for (const line of lines) size += Buffer.byteLength(line, "utf8");
  const last = lines.findLast((line) => line.length > 0);
  return [size, last !== undefined && !last.endsWith("\n")];
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
  private readonly fsApi: StoreFs;
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
    /** The session file. */
    readonly path: string,
    [size, needsNewline]: [number, boolean],
    private readonly options: SessionWriterOptions,
  ) {
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
    const writer = new SessionFileWriter(path, tailOf(lines), options);
    writer.takeLock(false); // a new file has no earlier writer to take over from
    try {
      writer.writeWhole(lines, true);
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
    const torn = state.size > 0 && !state.endsWithNewline;
    return new SessionFileWriter(path, [state.size, torn], options);
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
    this.tail.write(this.prepareAppend(), line, false, this.fsyncs(opts));
  }

  /** Appends `json` (a JSON text without a newline) and `\n`, without building that string. */
  appendRecord(json: string, opts?: AppendOptions): void {
    this.tail.write(this.prepareAppend(), json, true, this.fsyncs(opts));
  }

  /**
   * Replaces the whole file (migration, empty-file initialisation) atomically (W3) with
   * `lines`, keeping mode 0600, after checking nobody else changed it; takes the lock if it is
   * not held yet, then reopens the fd on the new file.
   */
  rewrite(lines: readonly string[]): void {
    this.claim();
    this.tail.check();
    this.writeWhole(lines, false);
    this.tail.replaced(...tailOf(lines));
  }

  /** Closes the fd and releases the lock. Later appends throw; calling it again does nothing. */
  close(): void {
    this.closed = true;
    this.release();
  }

  /**
   * Closes the fd and releases the lock but stays usable (unless closed or taken over): the
   * next append takes them again after checking the file.
   */
  release(): void {
    this.tail.closeFd();
    this.lock?.release();
    this.lock = undefined;
  }

  /** Another writer of this process that holds this file's lock now, if any. */
  private inProcessHolder(): SessionFileWriter | undefined {
    const holder = inProcessLockOwner(this.path, this.fsApi);
    return holder instanceof SessionFileWriter && holder !== this ? holder : undefined;
  }

  private fsyncs(opts: AppendOptions | undefined): boolean {
    return opts?.fsync ?? this.options.durability === "always";
  }

  private writeWhole(lines: readonly string[], exclusive: boolean): void {
    writeFileAtomic(this.path, lines, { exclusive, fs: this.fsApi });
  }

  /**
   * Makes sure this writer may write and holds the lock. Within this process the newest
   * writer takes the file over from an older one (pi never closes the manager it leaves when
   * it resumes a session), which then loses its fd and conflicts on its next append; another
   * process's lock is refused. Before a takeover the file is checked, and a writer created
   * after this one must not hold it: a stale or older writer must conflict rather than
   * dispossess the current one.
   */
  private claim(): void {
    if (this.closed) throw new Error(`Session file writer is closed: ${this.path}`);
    if (this.superseded) {
      throw new SessionConflictError(
        this.path,
        "a newer session manager in this process took the file over",
      );
    }
    if (this.isLocked) return;
    if (!this.isOpen) this.tail.check();
    const holder = this.inProcessHolder();
    if (holder !== undefined && holder.generation > this.generation) {
      throw new SessionConflictError(
        this.path,
        "a newer session manager in this process holds the file",
      );
    }
    this.takeLock();
  }

  private takeLock(takeOver = true): void {
    this.lock = acquireLock(this.path, {
      fs: this.fsApi,
      takeOver,
      // A newer writer in this process has the file: let go of the fd; the lock is theirs.
      onLost: () => {
        this.superseded = true;
        this.lock = undefined;
        this.tail.closeFd();
      },
      owner: this,
    });
  }

  /** Lock, fd and tail check before an append; returns the fd to write to. */
  private prepareAppend(): number {
    this.claim();
    const opening = !this.isOpen;
    try {
      return this.tail.ready();
    } catch (error) {
      // Someone else wrote the file, or it is gone: this writer can never append again, so it
      // must not keep others out either. Give the lock back.
      if (error instanceof SessionConflictError) this.release();
      else if (opening && error instanceof SessionFileDeletedError) this.release();
      throw error;
    }
  }
}
