/**
 * `ls --all`'s listing from the stored answers, checked by one stat per file: the same walk and
 * candidate order as core's `listAllSessions(root)` and `listSessionsInDir(root)` (core's own
 * comparators), every row read in one query, and for each file its stored answer when its stat
 * vouches for it (`settled.ts`), else the listing's own per-file step (`IndexInfoCache`). The
 * answers come as plain summaries (no `SessionInfo`, no `Date`): a warm listing of ten thousand
 * sessions costs about what reading the rows and stating the files does.
 */

import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { basename, join } from "node:path";
import {
  compareDirCandidates,
  compareRootCandidates,
  jsonlPaths,
  type ListingSummary,
  newestFirst,
  type ShapedSessionInfo,
  summarizeListingAnswer,
} from "@pi-sessions/core/internal";
import { DEPTH } from "./file-index.js";
import { IndexInfoCache, type SyncCounts } from "./index-cache.js";
import type { Scope } from "./index-options.js";
import { pruneGone } from "./listing-scope.js";
import { settleRows, vouchedByStat } from "./settled.js";
import type { Database } from "./sqlite.js";
import type { Statements } from "./statements.js";
import { coveredBySync } from "./sync-covered-files.js";

/** A listed session's answer, with its path. */
export interface ListedSummary extends ListingSummary {
  readonly path: string;
}

/** What {@link quickListing} found. */
export interface QuickListing {
  /** The sessions of the project directories, then of the files in the root, each newest first. */
  readonly nested: ListedSummary[];
  readonly flat: ListedSummary[];
  /** The `*.jsonl` files met (sessions or not). */
  readonly files: number;
  /** Files answered by their stat alone. */
  readonly statOnly: number;
  /** What the per-file step did to the other files (and the rows of deleted ones dropped). */
  readonly counts: SyncCounts;
}

interface Candidate {
  readonly path: string;
  readonly name: string;
  readonly mtimeMs: number;
}

/** The project directories' files in `listAllSessions`' candidate order, with their stats. */
function rootCandidates(root: string): { candidates: Candidate[]; stats: Map<string, Stamp> } {
  const stats = new Map<string, Stamp>();
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return { candidates: [], stats };
  }
  const candidates: Candidate[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    for (const path of jsonlPaths(join(root, entry.name))) {
      const stamp = statOrNull(path);
      if (stamp === null) continue;
      stats.set(path, stamp);
      candidates.push({ path, name: basename(path), mtimeMs: stamp.mtimeMs });
    }
  }
  return { candidates: candidates.sort(compareRootCandidates), stats };
}

type Stamp = Stats;

/** A file's stat, `null` if it vanished or cannot be stated (core's listing skips it too). */
function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** The summary of a listed info (the per-file step's answer). */
function summaryOf(info: ShapedSessionInfo): ListedSummary {
  const time = (date: Date) => (Number.isNaN(date.getTime()) ? null : date.getTime());
  return {
    path: info.path,
    id: info.id,
    cwd: info.cwd,
    name: info.name ?? null,
    parentSessionPath: info.parentSessionPath ?? null,
    created: time(info.created),
    modified: time(info.modified),
    messageCount: info.messageCount,
    firstMessage: info.firstMessage,
    shape: info.shape,
  };
}

/** Stable, newest first, as core's listings end (an unknown time as core's `NaN`). */
function newestFirstOf(list: ListedSummary[]): ListedSummary[] {
  return list.sort((a, b) => newestFirst(a.modified ?? Number.NaN, b.modified ?? Number.NaN));
}

/**
 * The listing of every project directory under `root` and of the files in `root` itself, as
 * core's listings give it, from the index. Writes what the per-file step writes (rows of new or
 * changed files, settles, the rows of deleted files dropped). Throws what SQLite throws: the
 * caller falls back to the listings, which say what happened.
 */
export function quickListing(
  db: Database,
  st: Statements,
  root: string,
  settleMs: number,
  busyTimeoutMs: number,
  onProgress?: (done: number, total: number) => void,
): QuickListing {
  const prefix = `${root}/`;
  const cache = new IndexInfoCache(db, st, false, prefix, settleMs, DEPTH.listing);
  const rows = new Map(st.filesBetween.all(prefix, `${prefix}\u{10ffff}`).map((r) => [r.path, r]));
  cache.rows = rows;
  let statOnly = 0;
  const answer = (path: string, stamp: Stamp | null): ListedSummary | null => {
    const row = rows.get(path);
    if (row !== undefined && row.answer !== null && stamp !== null && vouchedByStat(row, stamp)) {
      rows.delete(path);
      statOnly++;
      const summary = summarizeListingAnswer(row.answer);
      return summary === null ? null : { ...summary, path };
    }
    const info = cache.get(path, stamp ?? undefined, true) as ShapedSessionInfo | null;
    return info === null ? null : summaryOf(info);
  };
  try {
    const { candidates, stats } = rootCandidates(root);
    const own = jsonlPaths(root).map((path) => ({ path, name: basename(path) }));
    const total = candidates.length + own.length;
    const nested: ListedSummary[] = [];
    for (const [i, { path }] of candidates.entries()) {
      const summary = answer(path, stats.get(path) ?? null);
      if (summary !== null) nested.push(summary);
      onProgress?.(i + 1, total);
    }
    const flat: ListedSummary[] = [];
    for (const [i, { path }] of own.sort(compareDirCandidates).entries()) {
      const summary = answer(path, statOrNull(path));
      if (summary !== null) flat.push(summary);
      onProgress?.(candidates.length + i + 1, total);
    }
    cache.batch.commit();
    settleRows(db, st, cache.settles, busyTimeoutMs);
    const scope: Scope = {
      inScope: (dir) => coveredBySync(root, dir),
      prefix,
      stored: () => [],
    };
    const pruned = pruneGone(db, st, cache, scope);
    return {
      nested: newestFirstOf(nested),
      flat: newestFirstOf(flat),
      files: total,
      statOnly,
      counts: {
        ...cache.counts,
        unchanged: cache.counts.unchanged + statOnly,
        gone: cache.counts.gone + pruned.dropped,
      },
    };
  } catch (error) {
    cache.batch.rollback();
    throw error;
  }
}
