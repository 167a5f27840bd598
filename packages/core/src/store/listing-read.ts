/**
 * Reading one file for a listing: its {@link SessionInfo} (and, for listings given
 * `withShape`, its {@link SessionShape}) from the cache when the file is unchanged, else from
 * one streaming read that is then remembered.
 */

import { statSync } from "node:fs";
import type { SessionInfo } from "../schema/types.js";
import type { FileStamp, SessionInfoCache } from "./listing-cache.js";
import { readSessionInfoSync } from "./session-info.js";
import type { SessionShape } from "./session-shape.js";

/** A listed session with the {@link SessionShape} of its file (listings given `withShape`). */
export type ShapedSessionInfo = SessionInfo & {
  /** What the same read found about the file's structure. */
  readonly shape: SessionShape;
};

/** A file to list. */
export interface Candidate {
  readonly path: string;
  /** Its stat, when the candidate search already took one (listAll sorts by mtime). */
  readonly stamp?: FileStamp;
}

/** The stamp of a stat result, for the cache. */
export function stampOf(stats: FileStamp): FileStamp {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino };
}

/**
 * The info of one file: from the cache when its stamp is unchanged, else read and remembered.
 * `null` for files that are gone, unreadable or not sessions. Synchronous: on this workload
 * (many small files, each parsed in full) a plain loop beats a pool of async reads by about
 * a quarter, because the thread-pool round trips cost more than they overlap.
 */
export function loadInfo(candidate: Candidate, cache: SessionInfoCache | null): SessionInfo | null {
  const stats = statsForCache(candidate, cache);
  if (stats === null) return null;
  if (stats !== undefined && cache) {
    const hit = cache.get(candidate.path, stats);
    if (hit !== undefined) return hit;
  }
  const read = readSessionInfoSync(candidate.path);
  if (read === null) return null;
  // Keyed by the stat of the open file: the info reflects exactly those bytes.
  cache?.set(candidate.path, stampOf(read.stats), read.info);
  return read.info;
}

/** {@link loadInfo} for a listing that wants shapes: each info comes with its file's shape. */
export function loadShapedInfo(
  candidate: Candidate,
  cache: SessionInfoCache | null,
): ShapedSessionInfo | null {
  const stats = statsForCache(candidate, cache);
  if (stats === null) return null;
  if (stats !== undefined && cache) {
    const hit = cache.getShaped(candidate.path, stats);
    if (hit === null) return null;
    if (hit !== undefined) return { ...hit.info, shape: hit.shape };
  }
  const read = readSessionInfoSync(candidate.path, true);
  if (read === null) return null;
  cache?.set(candidate.path, stampOf(read.stats), read.info, read.shape);
  if (read.info === null || read.shape === undefined) return null;
  return { ...read.info, shape: read.shape };
}

/**
 * The stat a cached entry is checked against: `undefined` when the path was never cached (a
 * path never seen cannot hit, so no stat is taken; the open file's stat keys the new entry),
 * `null` when the file is gone (its entry is dropped).
 */
function statsForCache(
  { path, stamp }: Candidate,
  cache: SessionInfoCache | null,
): FileStamp | null | undefined {
  if (!cache?.has(path)) return undefined;
  try {
    return stamp ?? statSync(path);
  } catch {
    cache.delete(path);
    return null;
  }
}
