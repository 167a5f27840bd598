import { AppendTail, SessionConflictError, SessionFileDeletedError } from "./append-tail.js";
import { writeFileAtomic } from "./atomic-write.js";
import { acquireLock, inProcessLockOwner, type Lock } from "./lock.js";
import { nodeStoreFs, type StoreFs } from "./store-fs.js";

// The writer's errors live with the checks that throw them; callers import them from here.
export { SessionConflictError, SessionFileDeletedError } from "./append-tail.js";

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

/** Per-call options of an append: `fsync` overrides the writer's durability. */
type AppendOptions = { readonly fsync?: boolean };

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
 * The single writer of one flushed session file (SPEC §6.3, §12): holds the advisory lock (W7)
 * and fsyncs per its durability (W9); its {@link AppendTail} keeps the append-only fd (W21),
 * checks the file's size and inode before every append (W7, W8), never glues a line onto a
 * torn tail (W1) and undoes a failed append (W2). Never recreates a deleted file (W8).
 */
export class SessionFileWriter {
  private readonly fsApi: StoreFs;
  private readonly tail: AppendTail;
  private lock: Lock | undefined;
  private closed = false;
  /** Set when a newer writer in this process took the file over: appends conflict for good. */
  private superseded = false;
  /** Creation order: only a newer writer may take a file over from, or reload after, another. */
  private readonly generation = ++writerGeneration;

  private constructor(
    readonly path: string,
    [size, needsNewline]: [number, boolean],
    private readonly options: SessionWriterOptions,
  ) {
    this.fsApi = options.fs ?? nodeStoreFs;
    this.tail = new AppendTail(path, this.fsApi, size, needsNewline);
  }

  /**
   * The first write of a pending session (SPEC §6.2): takes the lock, then creates `path` with
   * every line so far in one atomic exclusive create (fails if the file exists; a crash never
   * leaves half a file), fsynced, mode 0600.
   */
  static createNew(
    path: string,
    lines: readonly string[],
    options: SessionWriterOptions = {},
  ): SessionFileWriter {
    const writer = new SessionFileWriter(path, tailOf(lines), options);
    writer.takeLock(false); // a new file has no earlier writer to take over from
    try {
      writeFileAtomic(path, lines, { exclusive: true, fs: writer.fsApi });
    } catch (error) {
      writer.close();
      throw error;
    }
    writer.tail.openQuietly();
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
    return new SessionFileWriter(path, [state.size, torn], options);
  }

  /** Bytes the file has as far as this writer knows (what it last read or wrote). */
  get size(): number {
    return this.tail.size;
  }

  get isOpen(): boolean {
    return this.tail.fd !== undefined;
  }

  /** Whether the file as this writer knows it ends with `\n` (else the next append adds one). */
  get endsWithNewline(): boolean {
    return !this.tail.needsNewline;
  }

  get isLocked(): boolean {
    return this.lock?.held === true;
  }

  /**
   * True when the writer of this process that holds the file (not this one, nor a newer one)
   * has appended since this one last read it, and the file is exactly what it left: only its
   * complete lines are in between, so the manager may reload them; any other change is a
   * conflict, which the next append reports. Does no IO while this writer holds the lock.
   */
  grownByThisProcess(): boolean {
    if (this.isLocked || this.closed || this.superseded || this.isOpen) return false;
    const holder = this.inProcessHolder();
    if (holder === undefined || holder.generation > this.generation) return false;
    return holder.tail.size > this.tail.size && holder.tail.isExactlyOnDisk();
  }

  /**
   * Appends one line (which should end in `\n`). Throws a lock, deleted-file or conflict error
   * before writing anything, or the write's own error after undoing its partial bytes: the
   * file's logical content is unchanged either way (SPEC §0.1 invariant 4).
   */
  append(line: string, opts?: AppendOptions): void {
    this.tail.write(this.prepareAppend(), line, false, this.fsyncs(opts));
  }

  /** Appends `json` (a JSON text without a newline) and `\n`, without building that string. */
  appendRecord(json: string, opts?: AppendOptions): void {
    this.tail.write(this.prepareAppend(), json, true, this.fsyncs(opts));
  }

  /**
   * Replaces the whole file with `lines` atomically (W3, mode 0600) after checking nobody else
   * changed it; takes the lock if not held yet, then reopens the fd on the new file.
   */
  rewrite(lines: readonly string[]): void {
    this.claim();
    this.tail.check();
    writeFileAtomic(this.path, lines, { fs: this.fsApi });
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

  /**
   * Makes sure this writer may write and holds the lock. Within this process the newest writer
   * takes the file over from an older one (pi never closes the manager it leaves when it
   * resumes a session), which then conflicts on its next append; another process's lock is
   * refused. A stale or older writer must conflict rather than dispossess the current one, so
   * the file is checked first and a writer created after this one must not hold it.
   */
  private claim(): void {
    if (this.closed) throw new Error(`Session file writer is closed: ${this.path}`);
    if (this.superseded) throw this.newerWriter("took the file over");
    if (this.isLocked) return;
    if (!this.isOpen) this.tail.check();
    const holder = this.inProcessHolder();
    if (holder !== undefined && holder.generation > this.generation) {
      throw this.newerWriter("holds the file");
    }
    this.takeLock();
  }

  private newerWriter(what: string): SessionConflictError {
    return new SessionConflictError(this.path, `a newer session manager in this process ${what}`);
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
      const deleted = opening && error instanceof SessionFileDeletedError;
      if (deleted || error instanceof SessionConflictError) this.release();
      throw error;
    }
  }
}
