/**
 * The first half of `ls --all`'s listing from the index (`quick-listing.ts` has the second):
 * core's walk and candidate order for `listAllSessions(root)` and `listSessionsInDir(root)`
 * (core's own comparators), every row under the root read in one query, one stat per file, and
 * for each file its stored answer when its stat vouches for it (`settled.ts`). It only reads,
 * and it loads nothing of the per-file step (core's folds, the records, the plugins' usage), so
 * a warm listing costs about what the walk, the query and the stats cost; a file its stat does
 * not vouch for is left pending for the second half.
 */

import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  compareDirCandidates,
  compareRootCandidates,
  jsonlPaths,
  type ListingSummary,
  newestFirst,
  type PathProblem,
  summarizeListingAnswer,
} from "@pi-sessions/core/internal";
import type { SyncCounts } from "./index-cache.js";
import { indexRules } from "./index-rules.js";
import { sameStamp } from "./settled.js";
import type { StampedRow } from "./statements.js";
import { coveredBySync } from "./sync-covered-files.js";

/** A listed session's answer, with its path. */
export interface ListedSummary extends ListingSummary {
  readonly path: string;
}

/** One candidate file of the listing, in candidate order. */
export interface WalkedFile {
  readonly path: string;
  /**
   * Its answer when its stat vouched for its row (`null`: no session); `undefined` while it is
   * pending (no row, a row its stat does not vouch for, or no stat).
   */
  summary: ListedSummary | null | undefined;
  /** A pending file's stat, `null` if it vanished or cannot be stated. */
  stamp: Stats | null;
}

/** What {@link walkStored} found. */
export interface StoredWalk {
  /** The project directories' files, then the files in the root itself, each in candidate order. */
  readonly files: readonly WalkedFile[];
  /** How many of {@link files} are the project directories' (the rest lie in the root). */
  readonly nestedCount: number;
  /** Files answered by their stat alone. */
  readonly statOnly: number;
  /** Files left for the per-file step. */
  readonly pending: number;
  /**
   * The paths of the rows read up front that no vouched file took: the pending files' rows and
   * those of files the walk did not meet (gone, unreadable, or beside the listing).
   */
  readonly rows: ReadonlySet<string>;
  /** Whether a row of the listing's own folders lost its file (or could not be looked at). */
  readonly unmet: boolean;
  /** See {@link QuickListing.clean}. */
  readonly clean: boolean;
  /** See {@link QuickListing.files}. */
  readonly regularFiles: number;
}

/** A file's stat, `null` if it vanished or cannot be stated. */
export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * Answers a file from its row when its stat vouches for it: the stored summary, with the
 * row taken out of `rows`; else the file is pending and keeps its stat. Only what a pending
 * file needs is kept: ten thousand stats held to the end cost more than reading them.
 */
function answered(path: string, stamp: Stats | null, rows: Map<string, StampedRow>): WalkedFile {
  const row = rows.get(path);
  if (row === undefined || stamp === null || row[7] !== 1 || row[6] === null) {
    return { path, summary: undefined, stamp };
  }
  if (!sameStamp(stamp, row[1], row[2], row[3], row[4], row[5])) {
    return { path, summary: undefined, stamp };
  }
  rows.delete(path);
  const summary = summarizeListingAnswer(row[6]) as Mutable<ListedSummary> | null;
  // The path added to the decoded summary itself: a copy of every summary costs its fields.
  if (summary !== null) summary.path = path;
  return { path, summary, stamp: null };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What a walk of the folders met besides the answers: whether all of it was as expected. */
interface Met {
  /** Set when a folder could not be listed or a `*.jsonl` entry was not what it should be. */
  irregular: boolean;
  /** How many of the `*.jsonl` entries met were regular files (a root's folders are not). */
  regular: number;
}

/**
 * Whether a listed `*.jsonl` entry's stat (`null`: none) is what a listing expects: a regular
 * file, or in the root also a directory (a project directory, as the listings take it).
 */
const expected = (stamp: Stats | null, inRoot: boolean) =>
  stamp !== null && (stamp.isFile() || (inRoot && stamp.isDirectory()));

/** A directory's `*.jsonl` paths (`jsonlPaths`), `met` told when it could not be listed. */
function pathsIn(dir: string, met: Met): string[] {
  const problems: PathProblem[] = [];
  const paths = jsonlPaths(dir, problems);
  if (problems.length > 0) met.irregular = true;
  return paths;
}

/** The project directories' files in `listAllSessions`' candidate order, answered. */
function rootCandidates(
  root: string,
  entries: readonly Dirent[],
  rows: Map<string, StampedRow>,
  met: Met,
): WalkedFile[] {
  const candidates: { name: string; mtimeMs: number; file: WalkedFile }[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    const dir = join(root, entry.name);
    // `jsonlPaths`' paths are the directory's prefix and the name: the name is their tail.
    const from = join(dir, "x").length - 1;
    for (const path of pathsIn(dir, met)) {
      const stamp = statOrNull(path);
      if (!expected(stamp, false)) met.irregular = true;
      if (stamp === null) continue;
      if (stamp.isFile()) met.regular++;
      const file = answered(path, stamp, rows);
      candidates.push({ name: path.slice(from), mtimeMs: stamp.mtimeMs, file });
    }
  }
  return candidates.sort(compareRootCandidates).map((candidate) => candidate.file);
}

/** The files in `root` itself in `listSessionsInDir`' candidate order, answered. */
function ownCandidates(root: string, rows: Map<string, StampedRow>, met: Met): WalkedFile[] {
  const own = pathsIn(root, met).map((path) => ({ path, name: basename(path) }));
  return own.sort(compareDirCandidates).map(({ path }) => {
    const stamp = statOrNull(path);
    if (!expected(stamp, true)) met.irregular = true;
    if (stamp?.isFile()) met.regular++;
    return answered(path, stamp, rows);
  });
}

/** The root's entries; none when it is missing, and `met` told when it cannot be listed. */
function rootEntries(root: string, met: Met): Dirent[] {
  try {
    return readdirSync(root, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") met.irregular = true;
    return [];
  }
}

/**
 * Walks `root` as `ls --all`'s two listings do and answers every file whose stat vouches for
 * its stored row (the rows read by `stamps`, `Statements.stampsBetween`); `onProgress` hears how many were answered once the walk is done. Throws what
 * SQLite throws.
 */
export function walkStored(
  stamps: { all(rules: string, from: string, to: string): StampedRow[] },
  root: string,
  onProgress?: (done: number, total: number) => void,
): StoredWalk {
  const prefix = `${root}/`;
  const read = stamps.all(indexRules(), prefix, `${prefix}\u{10ffff}`);
  const rows = new Map(read.map((row) => [row[0], row]));
  const met: Met = { irregular: false, regular: 0 };
  const nested = rootCandidates(root, rootEntries(root, met), rows, met);
  const files = [...nested, ...ownCandidates(root, rows, met)];
  let pending = 0;
  const pendingPaths = new Set<string>();
  for (const file of files) {
    if (file.summary !== undefined) continue;
    pending++;
    pendingPaths.add(file.path);
  }
  let unmet = false;
  for (const path of rows.keys()) {
    if (!pendingPaths.has(path) && coveredBySync(root, dirname(path))) unmet = true;
  }
  const statOnly = files.length - pending;
  onProgress?.(statOnly, files.length);
  return {
    files,
    nestedCount: nested.length,
    statOnly,
    pending,
    rows: new Set(rows.keys()),
    unmet,
    clean: !met.irregular,
    regularFiles: met.regular,
  };
}

/** What `ls --all`'s listing found. */
export interface QuickListing {
  /** The sessions of the project directories, then of the files in the root, each newest first. */
  readonly nested: ListedSummary[];
  readonly flat: ListedSummary[];
  /**
   * The regular `*.jsonl` files met (sessions or not): what a scan of the folders counts, so a
   * caller may say how many of them are no session. A FIFO, a dangling link or a project folder
   * named `*.jsonl` is not one of them.
   */
  readonly files: number;
  /** Files answered by their stat alone. */
  readonly statOnly: number;
  /** What the per-file step did to the other files (and the rows of deleted ones dropped). */
  readonly counts: SyncCounts;
  /**
   * Whether the walk met nothing out of the way: every folder could be listed, and every
   * `*.jsonl` entry was a regular file (in the root also a directory, a project directory).
   * When it is, a scan for what cannot be read (core's `scanSessionFiles`) finds nothing, and
   * a caller that reports such things need not walk the folder again to know it.
   */
  readonly clean: boolean;
}

/** Stable, newest first, as core's listings end (an unknown time as core's `NaN`). */
function newestFirstOf(list: ListedSummary[]): ListedSummary[] {
  return list.sort((a, b) => newestFirst(a.modified ?? Number.NaN, b.modified ?? Number.NaN));
}

/** The sessions of a stretch of the walk's files, every one answered. */
function sessionsOf(files: StoredWalk["files"]): ListedSummary[] {
  const sessions: ListedSummary[] = [];
  for (const file of files) if (file.summary != null) sessions.push(file.summary);
  return newestFirstOf(sessions);
}

/**
 * The listing once every file of the walk is answered: the sessions of the project directories
 * and of the root, each newest first, as core's listings end.
 */
export function vouchedListing(walk: StoredWalk): QuickListing {
  return {
    nested: sessionsOf(walk.files.slice(0, walk.nestedCount)),
    flat: sessionsOf(walk.files.slice(walk.nestedCount)),
    files: walk.regularFiles,
    statOnly: walk.statOnly,
    counts: { unchanged: walk.statOnly, "caught-up": 0, indexed: 0, gone: 0 },
    clean: walk.clean,
  };
}
