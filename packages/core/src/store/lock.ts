import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import {
  type LockHolder,
  lockPathFor,
  parseHolder,
  removeIfUnchanged,
  tryCreate,
} from "./lock-file.js";
import { HeldLockFile, heldLocks, installExitHook, type Lock, LockHandle } from "./lock-held.js";
import { errorCode, nodeStoreFs, type StoreFs } from "./store-fs.js";

export { LOCK_SUFFIX, type LockHolder, lockPathFor } from "./lock-file.js";
export type { Lock } from "./lock-held.js";

/** Options of {@link acquireLock}. */
export interface LockOptions {
  /**
   * A lock whose file was not refreshed for this long is stale (default 10 minutes). A live
   * holder refreshes the mtime every `staleMs / 3`, so this only expires hung or dead holders,
   * including those on another host, whose pid cannot be probed.
   */
  staleMs?: number;
  /**
   * When this process already holds the lock through an acquisition that yields (one with
   * `onLost`): `true` takes it over (the lock file stays on disk, so other processes never
   * see it free; the previous handle stops being held and its `onLost` runs), `false`
   * (default) throws {@link SessionLockedError}. A lock held without `onLost` (a repair) and
   * another process's lock are never taken over.
   */
  takeOver?: boolean;
  /**
   * Makes this acquisition yield to a later `takeOver` in this process, and runs then (the
   * session writer closes its fd and refuses further appends).
   */
  onLost?: () => void;
  /** Who holds this acquisition, for {@link inProcessLockOwner} (the session writer). */
  owner?: object;
  /** File-system calls (test seam; default `node:fs`). */
  fs?: StoreFs;
}

/** Thrown when another live writer holds the session's lock (W7). */
export class SessionLockedError extends Error {
  /** The lock file. */
  readonly lockPath: string;
  /** The holder, when the lock file could be read. */
  readonly holder: LockHolder | undefined;

  /** Builds the error for `lockPath` held by `holder`. */
  constructor(lockPath: string, holder: LockHolder | undefined) {
    const who = holder
      ? `pid ${holder.pid} on host ${holder.host} since ${holder.acquiredAt}`
      : "an unknown holder";
    super(`Session file is locked by another writer (${who}): ${lockPath}`);
    this.name = "SessionLockedError";
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

/** Default {@link LockOptions.staleMs}. */
export const DEFAULT_LOCK_STALE_MS = 10 * 60 * 1000;

/** An unreadable lock younger than this may be one whose holder has not written it yet. */
const UNPARSEABLE_GRACE_MS = 2000;

/** True unless probing `pid` says it does not exist (EPERM means alive, another user's). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) !== "ESRCH";
  }
}

/** A lock file as found on disk, with the verdict on whether it may be taken over. */
interface LockFileState {
  readonly text: string;
  readonly holder: LockHolder | undefined;
  readonly stale: boolean;
}

/**
 * Reads the lock file of `lockPath` and judges it (`undefined` when there is none). Stale:
 * unreadable and older than a grace period; our pid on our host but not a lock this process
 * holds (pid reused after a restart); another pid on our host that no longer exists; or not
 * refreshed for `staleMs` (hung holder, or another host whose pid we cannot probe).
 */
function inspectLock(lockPath: string, fsApi: StoreFs, staleMs: number): LockFileState | undefined {
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
  if (!holder) return { text, holder, stale: age > UNPARSEABLE_GRACE_MS };
  const sameHost = holder.host === hostname();
  let stale = age > staleMs;
  if (sameHost && holder.pid === process.pid) {
    stale ||= holder.token === undefined || !heldLocks.has(holder.token);
  } else if (sameHost) stale ||= !isProcessAlive(holder.pid);
  return { text, holder, stale };
}

/**
 * The lock file this process holds for `found`, if the holder recorded there is this process
 * and one of its live acquisitions (not a dead process whose pid we reused).
 */
function ownHeldLock(found: LockFileState): HeldLockFile | undefined {
  const holder = found.holder;
  if (holder?.token === undefined || holder.pid !== process.pid) return undefined;
  if (holder.host !== hostname()) return undefined;
  return heldLocks.get(holder.token);
}

/**
 * Takes the advisory single-writer lock of `sessionPath` (W7): creates `<sessionPath>.lock`
 * with O_EXCL, mode 0600, holding `{pid, host, acquiredAt, token}`. A stale lock (see
 * {@link LockOptions.staleMs}; dead pid on this host) is removed and the create retried once.
 * A lock this process already holds is taken over when `takeOver` is set. Throws
 * {@link SessionLockedError} when another live writer, in another process (or in this one,
 * without `takeOver`), holds it.
 */
export function acquireLock(sessionPath: string, options: LockOptions = {}): Lock {
  const fsApi = options.fs ?? nodeStoreFs;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const lockPath = lockPathFor(sessionPath);
  const holder: LockHolder = {
    pid: process.pid,
    host: hostname(),
    acquiredAt: new Date().toISOString(),
    token: randomBytes(8).toString("hex"),
  };
  const text = `${JSON.stringify(holder)}\n`;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(lockPath, fsApi, text)) {
      const file = new HeldLockFile(lockPath, text, fsApi, staleMs, holder.token as string);
      heldLocks.set(file.token, file);
      installExitHook();
      const handle = new LockHandle(file, options.onLost, options.owner);
      file.transferTo(handle);
      return handle;
    }
    const found = inspectLock(lockPath, fsApi, staleMs);
    if (found === undefined) continue; // released between our create and our read
    const own = ownHeldLock(found);
    if (own?.owner?.yields === true && options.takeOver === true) {
      const handle = new LockHandle(own, options.onLost, options.owner);
      own.transferTo(handle);
      return handle;
    }
    if (!found.stale || attempt > 0) throw new SessionLockedError(lockPath, found.holder);
    removeIfUnchanged(lockPath, fsApi, found.text);
  }
  throw new SessionLockedError(lockPath, inspectLock(lockPath, fsApi, staleMs)?.holder);
}

/**
 * The owner (see {@link LockOptions.owner}) of the acquisition of this process that holds the
 * lock of `sessionPath` now and would yield to a takeover; `undefined` when the lock is free,
 * held by another process, or held here without yielding. Reads the lock file (no writes).
 */
export function inProcessLockOwner(
  sessionPath: string,
  options: Pick<LockOptions, "fs" | "staleMs"> = {},
): object | undefined {
  const fsApi = options.fs ?? nodeStoreFs;
  const found = inspectLock(
    lockPathFor(sessionPath),
    fsApi,
    options.staleMs ?? DEFAULT_LOCK_STALE_MS,
  );
  const owner = found === undefined ? undefined : ownHeldLock(found)?.owner;
  return owner?.yields === true ? owner.owner : undefined;
}

/**
 * Removes `<sessionPath>.lock` if it is stale (used when a session is deleted); a live lock
 * stays. Returns true if a lock file was removed.
 */
export function removeStaleLock(sessionPath: string, options: LockOptions = {}): boolean {
  const fsApi = options.fs ?? nodeStoreFs;
  const lockPath = lockPathFor(sessionPath);
  const found = inspectLock(lockPath, fsApi, options.staleMs ?? DEFAULT_LOCK_STALE_MS);
  if (!found?.stale) return false;
  removeIfUnchanged(lockPath, fsApi, found.text);
  return true;
}
