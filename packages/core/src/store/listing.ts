/**
 * Listing sessions with their {@link SessionInfo} (SPEC §10.5): one directory (`list`,
 * `listAll(dir)`) or every project directory under the sessions root (`listAll()`). Files are
 * read one after another (yielding to the event loop every few ms), each streamed in chunks;
 * unchanged files come from a {@link SessionInfoCache}. Only reads (W13); a missing directory
 * lists as `[]`. With `withShape`, each info also carries its file's `SessionShape`.
 */

import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { resolveCwd } from "../env/paths.js";
import type { SessionInfo } from "../schema/types.js";
import { cwdMatches } from "./discovery.js";
import {
  defaultSessionInfoCache,
  type FileStamp,
  loadInfo,
  type SessionInfoCache,
  type ShapedSessionInfo,
} from "./listing-cache.js";

export type { ShapedSessionInfo } from "./listing-cache.js";

/** A file to list, with its stat when the candidate search already took one. */
interface Candidate {
  readonly path: string;
  readonly stamp?: FileStamp;
}

/**
 * Progress of a listing: called once per processed file with how many are done and how many
 * there are. `partial`, when present, is a snapshot of the sessions loaded so far, newest
 * first (same shape as R1.6's `SessionListProgress`).
 */
export type SessionListProgress = (
  loaded: number,
  total: number,
  partial?: readonly SessionInfo[],
) => void;

/** Options shared by the listing functions. */
export interface ListingOptions {
  /** Told after each file; see {@link SessionListProgress} for when `partial` is given. */
  onProgress?: SessionListProgress;
  /** Aborting it rejects the listing with `signal.reason`; no progress is reported after. */
  signal?: AbortSignal;
  /** Where unchanged files' infos are remembered; `null` reads every file. */
  cache?: SessionInfoCache | null;
  /** Also give each info its file's shape (as `shape`), from the same pass; off by default. */
  withShape?: boolean;
}

/** Listing options asking for shapes: the listing then resolves {@link ShapedSessionInfo}s. */
export type WithShape<O extends ListingOptions> = O & { readonly withShape: true };

/** Options of {@link listSessions}. */
export interface ListSessionsOptions extends ListingOptions {
  /** Keep only sessions whose header cwd matches this directory ({@link cwdMatches}). */
  filterCwd?: string;
  /**
   * Whether a header without a cwd passes the filter: true ([Fix] W17, for the default
   * directory) unless set to false (R1.6's rule for a custom session directory).
   */
  emptyCwdMatches?: boolean;
}

/** When a progress call carries `partial`, given the call's position. */
type PartialRule = (loaded: number, total: number, index: number) => boolean;

/** `list`: after the first file, every 10th and the last (SPEC §10.5, E17). */
const listPartialRule: PartialRule = (loaded, total) =>
  loaded === 1 || loaded % 10 === 0 || loaded === total;

/** Newest first by `modified`; `Array.prototype.sort` is stable, so ties keep their order. */
function byModifiedDesc(a: SessionInfo, b: SessionInfo): number {
  return b.modified.getTime() - a.modified.getTime();
}

/** Sort key for partial snapshots; an Invalid Date sorts last rather than anywhere. */
function modifiedKey(info: SessionInfo): number {
  const time = info.modified.getTime();
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/**
 * Inserts into an array kept newest first, after every session at least as new, so that the
 * snapshot order is stable in completion order without sorting the whole array per snapshot.
 */
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

const yieldToEventLoop = (): Promise<void> => new Promise((done) => setImmediate(done));

/**
 * Processes candidates in order and reports each as it completes, yielding to the event loop
 * every few milliseconds so progress callbacks, timers and aborts stay live. Resolves the
 * infos that pass `filter`, newest first (stable in candidate order).
 */
async function processCandidates(
  candidates: readonly Candidate[],
  filter: ((info: SessionInfo) => boolean) | undefined,
  rule: PartialRule,
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
    if (info !== null && (filter === undefined || filter(info))) {
      kept.push(info);
      if (onProgress !== undefined) insertByModified(soFar, info);
    }
    onProgress?.(index + 1, total, rule(index + 1, total, index) ? soFar.slice() : undefined);
    if (performance.now() - lastYield > YIELD_EVERY_MS) {
      await yieldToEventLoop();
      lastYield = performance.now();
    }
  }
  signal?.throwIfAborted();
  return kept.sort(byModifiedDesc);
}

/**
 * The `*.jsonl` files of one directory (not recursive) in `list`'s processing order: file
 * name descending by `localeCompare`, as R1.6 orders them. `[]` if it cannot be read.
 */
async function directoryCandidates(dir: string): Promise<Candidate[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".jsonl"))
    .sort((a, b) => b.localeCompare(a))
    .map((name) => ({ path: join(dir, name) }));
}

/**
 * The sessions of one directory (SPEC §10.5 `list`): every `*.jsonl` file in it, processed in
 * file-name order descending, one at a time; files that are not sessions are dropped; with
 * `filterCwd`, only sessions whose header cwd matches; sorted by `modified`, newest first
 * (stable in processing order). Progress carries `partial` for the first file, every 10th and
 * the last. `[]` if the directory is missing or unreadable. Rejects with `signal.reason` when
 * aborted.
 */
export function listSessions(
  dir: string,
  options: WithShape<ListSessionsOptions>,
): Promise<ShapedSessionInfo[]>;
export function listSessions(dir: string, options?: ListSessionsOptions): Promise<SessionInfo[]>;
export async function listSessions(
  dir: string,
  options: ListSessionsOptions = {},
): Promise<SessionInfo[]> {
  options.signal?.throwIfAborted();
  const { filterCwd, emptyCwdMatches = true } = options;
  const wanted = filterCwd === undefined ? undefined : resolveCwd(filterCwd);
  const filter =
    wanted === undefined
      ? undefined
      : (info: SessionInfo) => cwdMatches(info.cwd, wanted, emptyCwdMatches);
  return processCandidates(await directoryCandidates(dir), filter, listPartialRule, options);
}

/**
 * `listAll(sessionDir)` (SPEC §10.5): the sessions of one directory with `list`'s processing
 * order and progress rules and no cwd filter.
 */
export function listSessionsInDir(
  dir: string,
  options: WithShape<ListingOptions>,
): Promise<ShapedSessionInfo[]>;
export function listSessionsInDir(dir: string, options?: ListingOptions): Promise<SessionInfo[]>;
export function listSessionsInDir(
  dir: string,
  options: ListingOptions = {},
): Promise<SessionInfo[]> {
  return listSessions(dir, { ...options, filterCwd: undefined });
}

/** A candidate of `listAll()` with what it is ordered by. */
interface RootCandidate extends Candidate {
  readonly name: string;
  readonly stamp: FileStamp;
}

/**
 * The `*.jsonl` files of every directory (or symlink, followed) directly under `root`; files
 * lying in the root itself are ignored (E17). Ordered by mtime, newest first, then base name
 * descending. Files that vanish before they are stat'ed are left out.
 */
async function rootCandidates(root: string): Promise<RootCandidate[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const dirs = entries.filter((e) => e.isDirectory() || e.isSymbolicLink());
  const perDir = await Promise.all(
    dirs.map(async (entry) => {
      const dir = join(root, entry.name);
      try {
        return (await readdir(dir)).filter((n) => n.endsWith(".jsonl")).map((n) => join(dir, n));
      } catch {
        return []; // A symlink to a file, a broken link, or an unreadable directory.
      }
    }),
  );
  const stamped = await Promise.all(
    perDir.flat().map(async (path): Promise<RootCandidate | null> => {
      try {
        return { path, name: basename(path), stamp: await stat(path) };
      } catch {
        return null;
      }
    }),
  );
  return stamped
    .filter((c): c is RootCandidate => c !== null)
    .sort((a, b) => b.stamp.mtimeMs - a.stamp.mtimeMs || b.name.localeCompare(a.name));
}

/**
 * `listAll()` without a directory (SPEC §10.5): the sessions of every project directory under
 * the sessions `root`, processed newest file first, one at a time, with no cwd filter, sorted
 * by `modified` (stable in processing order). Progress carries `partial` only once the first
 * candidate (the newest file) has finished: at that call, then every 100th call and the last.
 * `[]` if the root is missing. Rejects with `signal.reason` when aborted.
 */
export function listAllSessions(
  root: string,
  options: WithShape<ListingOptions>,
): Promise<ShapedSessionInfo[]>;
export function listAllSessions(root: string, options?: ListingOptions): Promise<SessionInfo[]>;
export async function listAllSessions(
  root: string,
  options: ListingOptions = {},
): Promise<SessionInfo[]> {
  options.signal?.throwIfAborted();
  const candidates = await rootCandidates(root);
  let firstDone = false;
  const rule: PartialRule = (loaded, total, index) => {
    const firstNow = index === 0;
    if (firstNow) firstDone = true;
    return firstDone && (firstNow || loaded % 100 === 0 || loaded === total);
  };
  return processCandidates(candidates, undefined, rule, options);
}
