/**
 * A per-file memo of {@link SessionInfo}s so that listing thousands of sessions a second time
 * re-reads only the files that changed (W21; DESIGN §3.7 "listing must not parse every file
 * in full every time"). In memory only; a process starts cold.
 */

import type { SessionInfo } from "../schema/types.js";
import type { SessionShape } from "./session-shape.js";

/**
 * What identifies one version of a file: the cache trusts an entry only while all three are
 * unchanged. The inode catches a file replaced by rename with the same size and mtime.
 */
export interface FileStamp {
  /** Size in bytes. */
  readonly size: number;
  /** Modification time in ms, with its fraction (sub-ms changes count). */
  readonly mtimeMs: number;
  /** Inode number. */
  readonly ino: number;
}

interface CacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
  readonly info: SessionInfo | null;
  /** The file's shape, when the listing that read it asked for one. */
  readonly shape?: SessionShape;
}

/** A copy a caller may change without changing the cache (its Dates are mutable objects). */
function copyInfo(info: SessionInfo): SessionInfo {
  return {
    ...info,
    created: new Date(info.created.getTime()),
    modified: new Date(info.modified.getTime()),
  };
}

/** Entries kept by default: far more than anyone's sessions, small next to their texts. */
const DEFAULT_MAX_ENTRIES = 50_000;

/**
 * Map from path to the info built for one {@link FileStamp} of that file. `null` results
 * (files that are not sessions) are cached too, so a stray `.jsonl` is not re-read either.
 * When full, the least recently used entry goes first. Returned infos are fresh copies.
 */
export class SessionInfoCache {
  private readonly entries = new Map<string, CacheEntry>();
  private hitCount = 0;
  private missCount = 0;

  /** @param maxEntries how many files to remember before evicting the least recently used. */
  constructor(readonly maxEntries: number = DEFAULT_MAX_ENTRIES) {}

  /**
   * The cached result for `path` if it was built for exactly this stamp: a copy of the info,
   * or `null` for a file known not to be a session. `undefined` on a miss.
   */
  get(path: string, stamp: FileStamp): SessionInfo | null | undefined {
    const entry = this.entries.get(path);
    if (
      entry === undefined ||
      entry.size !== stamp.size ||
      entry.mtimeMs !== stamp.mtimeMs ||
      entry.ino !== stamp.ino
    ) {
      return undefined;
    }
    this.hitCount++;
    // Re-insert so that Map order is least-recently-used first.
    this.entries.delete(path);
    this.entries.set(path, entry);
    return entry.info === null ? null : copyInfo(entry.info);
  }

  /**
   * Like {@link get}, for a listing that also wants each file's {@link SessionShape}: the
   * info copy and its shape, `null` for a file known not to be a session, `undefined` on a
   * miss — including an entry remembered without a shape (read by a plain listing).
   */
  getShaped(
    path: string,
    stamp: FileStamp,
  ): { info: SessionInfo; shape: SessionShape } | null | undefined {
    const entry = this.entries.get(path);
    if (entry === undefined || (entry.info !== null && entry.shape === undefined)) return undefined;
    const info = this.get(path, stamp);
    if (info === null || info === undefined) return info;
    return { info, shape: entry.shape as SessionShape };
  }

  /**
   * Whether anything is remembered for `path`, whatever its stamp. Lets a caller skip the
   * `stat` for a cache lookup that cannot hit (a cold listing reads the file anyway).
   */
  has(path: string): boolean {
    return this.entries.has(path);
  }

  /**
   * Remembers the result built for `path` at `stamp` (a private copy is stored), with the
   * file's shape when the read gathered one (shapes are immutable, so shared as they are).
   */
  set(path: string, stamp: FileStamp, info: SessionInfo | null, shape?: SessionShape): void {
    this.missCount++;
    this.entries.delete(path);
    const entry: CacheEntry = {
      size: stamp.size,
      mtimeMs: stamp.mtimeMs,
      ino: stamp.ino,
      info: info === null ? null : copyInfo(info),
    };
    this.entries.set(path, shape === undefined ? entry : { ...entry, shape });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** Forgets `path` (for example after it was deleted). */
  delete(path: string): void {
    this.entries.delete(path);
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

  /** Files read and remembered (cache misses) since creation or the last {@link clear}. */
  get misses(): number {
    return this.missCount;
  }
}

/** The cache the listing functions use unless given another one (or `null` for none). */
export const defaultSessionInfoCache = new SessionInfoCache();
