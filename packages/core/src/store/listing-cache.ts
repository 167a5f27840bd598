/**
 * A per-file memo of {@link SessionInfo}s so that listing thousands of sessions again re-reads
 * only the files that changed (W21; DESIGN §3.7). In memory only; a process starts cold.
 */

import type { SessionInfo } from "../schema/types.js";
import { statOrNull } from "./read-chunks.js";
import { readSessionInfoSync } from "./session-info.js";
import type { SessionShape } from "./session-shape.js";

/**
 * What identifies one version of a file: an entry is trusted only while all three are unchanged
 * (the inode catches a rename over it with the same size and mtime); a listing passes its whole
 * stat, so a cache that needs more (device, ctime) finds them too.
 */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  /** The device, when the stamp is a whole stat. */
  readonly dev?: number;
  /** The inode's change time, when the stamp is a whole stat (no call sets it back). */
  readonly ctimeMs?: number;
}

/** A listed session with the {@link SessionShape} of its file (listings given `withShape`). */
export type ShapedSessionInfo = SessionInfo & { readonly shape: SessionShape };

interface CacheEntry extends FileStamp {
  /** With its `shape` when the listing that read the file asked for shapes. */
  readonly info: SessionInfo | null;
}

/** A copy a caller may change without changing the cache (its Dates are mutable objects). */
function copyInfo(info: SessionInfo): SessionInfo {
  return {
    ...info,
    created: new Date(info.created.getTime()),
    modified: new Date(info.modified.getTime()),
  };
}

/**
 * Map from path to the info built for one {@link FileStamp} of that file. `null` results
 * (files that are not sessions) are cached too, so a stray `.jsonl` is not re-read either.
 * When full, the least recently used entry goes first. Returned infos are fresh copies.
 */
export class SessionInfoCache {
  private readonly entries = new Map<string, CacheEntry>();
  private hitCount = 0;
  private missCount = 0;

  /** The default is far more than anyone's sessions, and small next to their texts. */
  constructor(readonly maxEntries = 50_000) {}

  /**
   * The cached result for `path` if built for the file's current stamp (`stat`ed now unless
   * given, and only if remembered): the info (with its shape when `withShape`), or `null` for a
   * file known not to be a session or now gone; `undefined` on a miss or a missing shape.
   */
  get(path: string, stamp?: FileStamp, withShape = false): SessionInfo | null | undefined {
    const entry = this.entries.get(path);
    if (entry === undefined) return undefined;
    const now = stamp ?? statOrNull(path);
    if (now === null) {
      this.entries.delete(path);
      return null;
    }
    if (
      entry.size !== now.size ||
      entry.mtimeMs !== now.mtimeMs ||
      entry.ino !== now.ino ||
      (withShape && entry.info !== null && !("shape" in entry.info))
    ) {
      return undefined;
    }
    this.hitCount++;
    // Re-insert so that Map order is least-recently-used first.
    this.entries.delete(path);
    this.entries.set(path, entry);
    if (entry.info === null) return null;
    const { shape, ...info } = entry.info as ShapedSessionInfo;
    return withShape ? Object.assign(copyInfo(info), { shape }) : copyInfo(info);
  }

  /** Remembers a private copy of the result built for `path` at `stamp` (shapes are immutable). */
  set(path: string, stamp: FileStamp, info: SessionInfo | null): void {
    this.missCount++;
    this.entries.delete(path);
    const { size, mtimeMs, ino } = stamp;
    this.entries.set(path, { size, mtimeMs, ino, info: info === null ? null : copyInfo(info) });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** Forgets everything and resets the counters. */
  clear(): void {
    this.entries.clear();
    this.hitCount = 0;
    this.missCount = 0;
  }

  /** Number of files remembered. */
  get size(): number {
    return this.entries.size;
  }

  /** Lookups answered from the cache since creation or the last {@link clear}. */
  get hits(): number {
    return this.hitCount;
  }

  /** Files read and remembered (misses) since then. */
  get misses(): number {
    return this.missCount;
  }
}

/** The cache the listing functions use unless given another one (or `null` for none). */
export const defaultSessionInfoCache = new SessionInfoCache();

/**
 * The info of one file (with its shape when `withShape`), cached or read and remembered under
 * the open file's stat; `null` for files gone, unreadable or not sessions. Synchronous: on many
 * small files a plain loop beats a pool of async reads by about a quarter (thread-pool trips).
 */
export function loadInfo(
  cache: SessionInfoCache | null,
  path: string,
  stamp: FileStamp | undefined,
  withShape: boolean,
): SessionInfo | null {
  const hit = cache?.get(path, stamp, withShape);
  if (hit !== undefined) return hit;
  const read = readSessionInfoSync(path, withShape);
  if (read === null) return null;
  cache?.set(path, read.stats, read.info);
  return read.info;
}
