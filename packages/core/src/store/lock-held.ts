/**
 * The locks this process holds: one lock file per session file, with one refresh timer, handed
 * from one acquisition to the next when a newer writer of this process takes the file over.
 */
import { removeIfUnchanged } from "./lock-file.js";
import type { StoreFs } from "./store-fs.js";

/** An advisory single-writer lock on one session file (W7). */
export interface Lock {
  /** The lock file, `<sessionPath>.lock`. */
  readonly path: string;
  /** True until {@link Lock.release} runs or another acquisition in this process takes it over. */
  readonly held: boolean;
  /** Removes the lock file if this handle still holds it; safe to call more than once. */
  release(): void;
}

/** Lock files this process holds, by token: tells our own live lock from a reused pid's. */
export const heldLocks = new Map<string, HeldLockFile>();
let exitHookInstalled = false;

/**
 * A lock file this process holds: one per session file, with one refresh timer, however many
 * managers of this process have written the file in turn. Exactly one {@link LockHandle}, the
 * newest acquisition, owns it at a time.
 */
export class HeldLockFile {
  live = true;
  owner: LockHandle | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly path: string,
    private readonly text: string,
    private readonly fsApi: StoreFs,
    staleMs: number,
    /** This acquisition's random tag (see {@link LockHolder.token}). */
    readonly token: string,
  ) {
    // Keep the mtime fresh while this process lives, so an idle session is not judged stale;
    // unref'd so an open session never keeps the process alive.
    this.timer = setInterval(() => this.refresh(), Math.max(1, Math.floor(staleMs / 3)));
    this.timer.unref();
  }

  /** Touches the lock file's mtime; a lock lost to a takeover is just not refreshed. */
  private refresh(): void {
    try {
      const now = new Date();
      this.fsApi.utimesSync(this.path, now, now);
    } catch {
      // Nothing to refresh: the next append's tail check reports any foreign writer.
    }
  }

  /** Gives ownership to a new handle; the previous owner learns it lost the lock. */
  transferTo(handle: LockHandle): void {
    const previous = this.owner;
    this.owner = handle;
    previous?.lost();
  }

  /** Stops refreshing and removes the lock file if it is still ours. */
  drop(): void {
    if (!this.live) return;
    this.live = false;
    this.owner = undefined;
    clearInterval(this.timer);
    if (heldLocks.get(this.token) === this) heldLocks.delete(this.token);
    removeIfUnchanged(this.path, this.fsApi, this.text);
  }
}

/** One acquisition of a {@link HeldLockFile}; see {@link acquireLock}. */
export class LockHandle implements Lock {
  constructor(
    private readonly file: HeldLockFile,
    private readonly onLost: (() => void) | undefined,
    /** See {@link LockOptions.owner}. */
    readonly owner: object | undefined,
  ) {}

  get path(): string {
    return this.file.path;
  }

  get held(): boolean {
    return this.file.live && this.file.owner === this;
  }

  /** Whether a later acquisition in this process may take this one over. */
  get yields(): boolean {
    return this.onLost !== undefined;
  }

  /** Called once when a newer acquisition in this process takes the lock file over. */
  lost(): void {
    this.onLost?.();
  }

  release(): void {
    if (this.held) this.file.drop();
  }
}

/** Releases every lock this process holds when it exits (best effort; never needed for safety). */
export function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const lock of [...heldLocks.values()]) {
      try {
        lock.drop();
      } catch {
        // Exiting anyway; a leftover lock is recovered as stale (dead pid).
      }
    }
  });
}
