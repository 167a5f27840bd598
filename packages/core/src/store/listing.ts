/**
 * Listing sessions with their {@link SessionInfo} (SPEC §10.5). Only reads (W13); unchanged files
 * come from a {@link SessionInfoCache}; a missing directory lists `[]`.
 */

import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import { resolveCwd } from "../env/paths.js";
import type { SessionInfo } from "../schema/types.js";
import { cwdMatches } from "./discovery.js";
import { jsonlPaths } from "./jsonl-paths.js";
import {
  defaultSessionInfoCache,
  type FileStamp,
  loadInfo,
  type SessionInfoCache,
  type ShapedSessionInfo,
} from "./listing-cache.js";
import { compareDirCandidates, compareRootCandidates, newestFirst } from "./listing-order.js";
import { statOrNull } from "./read-chunks.js";

export type { ShapedSessionInfo } from "./listing-cache.js";

/** A file to list, with its stat if the candidate search took one. */
interface Candidate {
  readonly path: string;
  readonly stamp?: FileStamp;
}

/**
 * Called once per processed file; `partial`, when present, is a snapshot of the sessions
 * loaded so far, newest first (the shape of R1.6's `SessionListProgress`).
 */
export type SessionListProgress = (
  loaded: number,
  total: number,
  partial?: readonly SessionInfo[],
) => void;

/** Options shared by the listing functions. */
export interface ListingOptions {
  onProgress?: SessionListProgress;
  /** Aborting it rejects the listing with `signal.reason`; no progress is reported after. */
  signal?: AbortSignal;
  /** Where unchanged files' infos are remembered; `null` reads every file. */
  cache?: SessionInfoCache | null;
  /** Also give each info its file's shape (as `shape`), from the same pass; off by default. */
  withShape?: boolean;
}

/** What a listing with options `O` resolves: {@link ShapedSessionInfo}s given `withShape: true`. */
export type Listed<O> = O extends { readonly withShape: true } ? ShapedSessionInfo : SessionInfo;

/** Options of {@link listSessions}. */
export interface ListSessionsOptions extends ListingOptions {
  /** Keep only sessions whose header cwd matches this directory ({@link cwdMatches}). */
  filterCwd?: string;
  /** Whether a header without a cwd passes the filter (default true; see {@link cwdMatches}). */
  emptyCwdMatches?: boolean;
}

/** Sort key for partial snapshots; an Invalid Date sorts last rather than anywhere. */
function modifiedKey(info: SessionInfo): number {
  const time = info.modified.getTime();
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/** Inserts after every session at least as new: snapshots stay sorted without a sort each. */
function insertByModified(sorted: SessionInfo[], info: SessionInfo): void {
  const key = modifiedKey(info);
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const item = sorted[mid];
    if (item !== undefined && modifiedKey(item) >= key) lo = mid + 1;
    else hi = mid;
  }
  sorted.splice(lo, 0, info);
}

/** How long the listing loop may hold the event loop before it yields (ms). */
const YIELD_EVERY_MS = 10;

/**
 * Processes candidates in order, reporting each (with `partial` for the first, every
 * `partialEvery`th and the last) and yielding to the event loop every few ms so progress,
 * timers and aborts stay live. Resolves the infos that pass `filter`, newest first, ties in
 * candidate order (`sort` is stable).
 */
async function processCandidates(
  candidates: readonly Candidate[],
  filter: (info: SessionInfo) => boolean,
  partialEvery: number,
  options: ListingOptions,
): Promise<SessionInfo[]> {
  const { onProgress, signal } = options;
  const cache = options.cache === undefined ? defaultSessionInfoCache : options.cache;
  const total = candidates.length;
  const kept: SessionInfo[] = [];
  // Sessions loaded so far, newest first, in completion order among equals.
  const soFar: SessionInfo[] = [];
  let lastYield = performance.now();
  for (const [index, { path, stamp }] of candidates.entries()) {
    signal?.throwIfAborted();
    const info = loadInfo(cache, path, stamp, options.withShape === true);
    if (info !== null && filter(info)) {
      kept.push(info);
      if (onProgress !== undefined) insertByModified(soFar, info);
    }
    const loaded = index + 1;
    const partial = loaded === 1 || loaded % partialEvery === 0 || loaded === total;
    onProgress?.(loaded, total, partial ? soFar.slice() : undefined);
    if (performance.now() - lastYield > YIELD_EVERY_MS) {
      await new Promise((done) => setImmediate(done));
      lastYield = performance.now();
    }
  }
  signal?.throwIfAborted();
  return kept.sort((a, b) => newestFirst(a.modified.getTime(), b.modified.getTime()));
}

/**
 * The sessions of one directory (SPEC §10.5 `list`) whose header cwd matches `filterCwd` if given,
 * in R1.6's file order; progress has `partial` for the first file, every 10th and the last, as
 * pi 1.6.0 gives it.
 */
export async function listSessions<O extends ListSessionsOptions = ListSessionsOptions>(
  dir: string,
  options: O = {} as O,
): Promise<Listed<O>[]> {
  options.signal?.throwIfAborted();
  const { filterCwd, emptyCwdMatches = true } = options;
  const wanted = filterCwd === undefined ? undefined : resolveCwd(filterCwd);
  const filter = (info: SessionInfo) =>
    wanted === undefined || cwdMatches(info.cwd, wanted, emptyCwdMatches);
  const candidates = jsonlPaths(dir)
    .map((path) => ({ path, name: basename(path) }))
    .sort(compareDirCandidates);
  return (await processCandidates(candidates, filter, 10, options)) as Listed<O>[];
}

/** `listAll(sessionDir)` (SPEC §10.5): `list`'s order and progress rules, no cwd filter. */
export function listSessionsInDir<O extends ListingOptions = ListingOptions>(
  dir: string,
  options: O = {} as O,
): Promise<Listed<O>[]> {
  return listSessions(dir, { ...options, filterCwd: undefined });
}

/**
 * The `*.jsonl` files of each directory or symlink directly under `root` (as pi 1.6.0 reads them),
 * newest first.
 */
async function rootCandidates(root: string): Promise<Candidate[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const dirs = entries.filter((e) => e.isDirectory() || e.isSymbolicLink());
  // One synchronous stat after another: on files whose metadata is cached (the usual case) a
  // plain loop is several times faster than a pool of async stats and their promises.
  return dirs
    .flatMap((entry) => jsonlPaths(join(root, entry.name)))
    .flatMap((path) => {
      const stamp = statOrNull(path);
      return stamp === null ? [] : [{ path, name: basename(path), mtimeMs: stamp.mtimeMs, stamp }];
    })
    .sort(compareRootCandidates);
}

/**
 * `listAll()` without a directory (SPEC §10.5): the sessions of every project directory under
 * `root`, newest file first; progress has `partial` for the first file, every 100th and the last.
 */
export async function listAllSessions<O extends ListingOptions = ListingOptions>(
  root: string,
  options: O = {} as O,
): Promise<Listed<O>[]> {
  options.signal?.throwIfAborted();
  const candidates = await rootCandidates(root);
  return (await processCandidates(candidates, () => true, 100, options)) as Listed<O>[];
}
