/**
 * `ls --all`'s listing from the stored answers, checked by one stat per file: the walk and the
 * answers its stats vouch for (`stored-walk.ts`), then here the listing's own per-file step
 * (`IndexInfoCache`) for the files left pending, the settles it found, and the rows of files
 * known to be gone dropped. The answers come as plain summaries (no `SessionInfo`, no `Date`):
 * a warm listing of ten thousand sessions costs about what reading the rows and stating the
 * files does.
 */

import type { ShapedSessionInfo } from "@pi-sessions/core/internal";
import { DEPTH } from "./file-index.js";
import { IndexInfoCache } from "./index-cache.js";
import type { Scope } from "./index-options.js";
import { pruneGone } from "./listing-scope.js";
import { settleRows } from "./settled.js";
import type { Database } from "./sqlite.js";
import type { Statements } from "./statements.js";
import {
  type ListedSummary,
  type QuickListing,
  type StoredWalk,
  vouchedListing,
  walkStored,
} from "./stored-walk.js";
import { coveredBySync } from "./sync-covered-files.js";

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

/**
 * Finishes a walk of `root` on the same index: the per-file step for each pending file (rows
 * of new or changed files written, settles), then the rows of deleted files dropped. Throws
 * what SQLite throws: the caller falls back to the listings, which say what happened.
 */
export function finishListing(
  db: Database,
  st: Statements,
  root: string,
  walk: StoredWalk,
  timing: { readonly settleMs: number; readonly busyTimeoutMs: number },
  onProgress?: (done: number, total: number) => void,
): QuickListing {
  const prefix = `${root}/`;
  const cache = new IndexInfoCache(db, st, false, prefix, timing.settleMs, DEPTH.listing);
  // The rows no vouched file took, read again in full (the walk read only their stamps): a
  // pending file without one is new, and the rest are the files the walk did not meet.
  cache.rows = new Map();
  for (const path of walk.rows) {
    const row = st.listedByPath.get(path);
    if (row !== undefined) cache.rows.set(path, row);
  }
  try {
    let done = walk.statOnly;
    for (const file of walk.files) {
      if (file.summary !== undefined) continue;
      const info = cache.get(file.path, file.stamp ?? undefined, true) as ShapedSessionInfo | null;
      file.summary = info === null ? null : summaryOf(info);
      onProgress?.(++done, walk.files.length);
    }
    cache.batch.commit();
    settleRows(db, st, cache.settles, timing.busyTimeoutMs);
    const scope: Scope = { inScope: (dir) => coveredBySync(root, dir), prefix, stored: () => [] };
    const pruned = pruneGone(db, st, cache, scope);
    const listed = vouchedListing(walk);
    return {
      ...listed,
      counts: {
        ...cache.counts,
        unchanged: cache.counts.unchanged + walk.statOnly,
        gone: cache.counts.gone + pruned.dropped,
      },
    };
  } catch (error) {
    cache.batch.rollback();
    throw error;
  }
}

/**
 * The listing of every project directory under `root` and of the files in `root` itself, as
 * core's listings give it, from the index: {@link walkStored}, then {@link finishListing}.
 */
export function quickListing(
  db: Database,
  st: Statements,
  root: string,
  timing: { readonly settleMs: number; readonly busyTimeoutMs: number },
  onProgress?: (done: number, total: number) => void,
): QuickListing {
  const walk = walkStored(st.stampsBetween, root, onProgress);
  return finishListing(db, st, root, walk, timing, onProgress);
}
