/**
 * The advisory single-writer lock of a session file (W7: no silent fork between two writers),
 * handed on within this process.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { FILE_MODE } from "./paths.js";
import {
  CREATE_EXCLUSIVE,
  errorCode,
  nodeStoreFs,
  quietly,
  type StoreFs,
  writeAll,
} from "./store-fs.js";

/** Who holds a lock: the JSON content of a `<session>.lock` file. */
export interface LockHolder {
  readonly pid: number;
  /** Host name of the holder (pids only mean something on the same host). */
  readonly host: string;
  /** ISO-8601 time the lock was taken (informational; staleness uses the file's mtime). */
  readonly acquiredAt: string;
  /** Random tag of this acquisition: tells our live lock from a stale one; keeps texts unique. */
  readonly token?: string;
}

/** An advisory single-writer lock on one session file (W7: no silent fork between two writers). */
export interface Lock {
  readonly path: string;
  /** True until {@link Lock.release} runs or another acquisition in this process takes it over. */
  readonly held: boolean;
  /** Removes the lock file if this handle still holds it; safe to call more than once. */
  release(): void;
}

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /**
   * A lock not refreshed for this long is stale (default 10 minutes). A live holder refreshes
   * it every `staleMs / 3`, so this expires hung holders and those on another host.
   */
  staleMs?: number;
  /**
   * Take over (instead of throwing) a lock this process holds through an acquisition with
   * `onLost`, which then runs; the file stays, so other processes never see it free.
   */
  takeOver?: boolean;
  /** Makes this acquisition yield to a later `takeOver` in this process, and runs then. */
  onLost?: () => void;
  /** Who holds this acquisition, for {@link inProcessLockOwner} (the session writer). */
  owner?: object;
  /** File-system calls (test seam; default `node:fs`). */
  fs?: StoreFs;
}

/** Thrown when another live writer holds the session's lock (W7). */
export class SessionLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
  ) {
    const who = holder
      ? `pid ${holder.pid} on host ${holder.host} since ${holder.acquiredAt}`
      : "an unknown holder";
    super(`Session file is locked by another writer (${who}): ${lockPath}`);
    this.name = "SessionLockedError";
  }
}

/** The lock file of a session file; the id validator leaves room for the suffix (W18). */
export function lockPathFor(sessionPath: string): string {
  return `${sessionPath}.lock`;
}

const DEFAULT_STALE_MS = 10 * 60 * 1000;

/** An unreadable lock younger than this may be one whose holder has not written it yet. */
const UNPARSEABLE_GRACE_MS = 2000;

/** Lock files this process holds, by token (tells ours from a reused pid's), and who holds each. */
const heldLocks = new Map<string, HeldLock>();
let exitHookInstalled = false;

/**
 * One acquisition of a lock file this process wrote (`text`, refreshed by `timer`). A takeover
 * is a new acquisition of the same file, which `heldLocks` then names, and this one is told.
 */
class HeldLock implements Lock {
  constructor(
    readonly path: string,
    readonly text: string,
    readonly token: string,
    readonly fsApi: StoreFs,
    readonly timer: NodeJS.Timeout,
    readonly options: LockOptions,
  ) {
    const previous = heldLocks.get(token);
    heldLocks.set(token, this);
    previous?.options.onLost?.();
  }

  get held(): boolean {
    return heldLocks.get(this.token) === this;
  }

  /** Stops refreshing and removes the lock file if it is still ours. */
  release(): void {
    if (!this.held) return;
    heldLocks.delete(this.token);
    clearInterval(this.timer);
    removeIfUnchanged(this.path, this.fsApi, this.text);
  }
}

/** A lock file's content as a holder record; `undefined` if it is not one. */
function parseHolder(text: string): LockHolder | undefined {
  try {
    const { pid, host, acquiredAt, token } = JSON.parse(text) ?? {};
    const valid =
      typeof pid === "number" && typeof host === "string" && typeof acquiredAt === "string";
    if (!valid) return undefined;
    return { pid, host, acquiredAt, token: typeof token === "string" ? token : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Removes a lock file if its content is still `text`, re-read just before the unlink so a lock
 * a competitor took stays (the read-to-unlink window is why appends also check size and inode).
 */
function removeIfUnchanged(lockPath: string, fsApi: StoreFs, text: string): void {
  try {
    if (fsApi.readFileSync(lockPath) === text) fsApi.unlinkSync(lockPath);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}

/** Creates the lock file with O_EXCL; false if it already exists. */
function tryCreate(lockPath: string, fsApi: StoreFs, text: string): boolean {
  let fd: number;
  try {
    fd = fsApi.openSync(lockPath, CREATE_EXCLUSIVE, FILE_MODE);
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
  try {
    writeAll(fsApi, fd, Buffer.from(text, "utf8"));
  } catch (error) {
    quietly(() => fsApi.closeSync(fd));
    quietly(() => fsApi.unlinkSync(lockPath)); // else our half-written lock blocks until stale
    throw error;
  }
  quietly(() => fsApi.closeSync(fd));
  return true;
}

/** True unless probing `pid` says it does not exist (EPERM means alive, another user's). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== "ESRCH";
  }
}

/**
 * Reads the lock file of `lockPath` and judges it (`undefined` when there is none): its text and
 * holder, whether it is stale, and `own`, this process's acquisition if it holds it. Stale:
 * unreadable and older than a grace period; our pid on our host but not a lock this process
 * holds (pid reused after a restart); another pid on our host that no longer exists; or not
 * refreshed for `staleMs` (a hung holder, or another host whose pid we cannot probe).
 */
function inspectLock(lockPath: string, fsApi: StoreFs, staleMs: number) {
  let text: string;
  let mtimeMs: number;
  try {
    mtimeMs = fsApi.statSync(lockPath).mtimeMs;
    text = fsApi.readFileSync(lockPath);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
  const age = Date.now() - mtimeMs;
  const holder = parseHolder(text);
  if (!holder) return { text, holder, stale: age > UNPARSEABLE_GRACE_MS, own: undefined };
  const sameHost = holder.host === hostname();
  const ours = sameHost && holder.pid === process.pid;
  const own = ours && holder.token !== undefined ? heldLocks.get(holder.token) : undefined;
  let stale = age > staleMs;
  if (ours) stale ||= own === undefined;
  else if (sameHost) stale ||= !isProcessAlive(holder.pid);
  return { text, holder, stale, own };
}

/**
 * Takes the lock of `sessionPath` (W7): creates `<sessionPath>.lock` holding a {@link LockHolder}.
 * A stale lock (see {@link inspectLock}) is removed and the create retried once; one this process
 * holds is taken over with `takeOver`. Throws {@link SessionLockedError} for a live writer's.
 */
export function acquireLock(sessionPath: string, options: LockOptions = {}): Lock {
  const fsApi = options.fs ?? nodeStoreFs;
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const lockPath = lockPathFor(sessionPath);
  const token = randomBytes(8).toString("hex");
  const acquiredAt = new Date().toISOString();
  const text = `${JSON.stringify({ pid: process.pid, host: hostname(), acquiredAt, token })}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(lockPath, fsApi, text)) {
      // Unref'd so an open session never keeps the process alive.
      const timer = setInterval(touch, Math.max(1, Math.floor(staleMs / 3)), fsApi, lockPath);
      timer.unref();
      installExitHook();
      return new HeldLock(lockPath, text, token, fsApi, timer, options);
    }
    const found = inspectLock(lockPath, fsApi, staleMs);
    if (found === undefined) continue; // released between our create and our read
    if (found.own?.options.onLost !== undefined && options.takeOver === true) {
      const own = found.own;
      return new HeldLock(own.path, own.text, own.token, own.fsApi, own.timer, options);
    }
    if (!found.stale || attempt > 0) throw new SessionLockedError(lockPath, found.holder);
    removeIfUnchanged(lockPath, fsApi, found.text);
  }
  throw new SessionLockedError(lockPath, inspectLock(lockPath, fsApi, staleMs)?.holder);
}

/** Keeps a held lock's mtime fresh, so an idle session is not judged stale. */
function touch(fsApi: StoreFs, lockPath: string): void {
  try {
    fsApi.utimesSync(lockPath, new Date(), new Date());
  } catch {
    // Harmless: the next append's tail check reports any foreign writer.
  }
}

/** Releases every lock this process holds when it exits (best effort; never needed for safety). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const lock of [...heldLocks.values()]) {
      try {
        lock.release();
      } catch {
        // Exiting anyway; a leftover lock is recovered as stale (dead pid).
      }
    }
  });
}

/**
 * The {@link LockOptions.owner} of this process's acquisition holding `sessionPath`'s lock that
 * would yield to a takeover, else `undefined` (free, another process's, or not yielding).
 */
export function inProcessLockOwner(sessionPath: string, fsApi = nodeStoreFs): object | undefined {
  const held = inspectLock(lockPathFor(sessionPath), fsApi, DEFAULT_STALE_MS)?.own;
  return held?.options.onLost !== undefined ? held.options.owner : undefined;
}

/** Removes `<sessionPath>.lock` if it is stale (a deleted session's); true if it removed one. */
export function removeStaleLock(sessionPath: string): boolean {
  const lockPath = lockPathFor(sessionPath);
  const found = inspectLock(lockPath, nodeStoreFs, DEFAULT_STALE_MS);
  if (!found?.stale) return false;
  removeIfUnchanged(lockPath, nodeStoreFs, found.text);
  return true;
}
