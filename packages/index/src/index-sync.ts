/**
 * Bringing an index up to date with every session under a root (`SessionIndex.sync`): a sync
 * of only the files their stat does not vouch for when that stands for a full one
 * (`stat-check.ts`), else the two full listings with every record stored.
 */

import type { SessionListProgress } from "@pi-sessions/core";
import type { SessionInfoCache } from "@pi-sessions/core/internal";
import { type SyncCounts, zeroCounts } from "./index-cache.js";
import type { IndexConnection } from "./index-connection.js";
import { NO_SCOPE } from "./listing-scope.js";
import { isSqliteError } from "./open-database.js";
import { type StatCheck, statCheck } from "./stat-check.js";

/** What a sync did: how many sessions there are, the files by state, the unreadable folders. */
export interface SyncReport {
  sessions: number;
  counts: SyncCounts;
  unreadable: string[];
}

/** See `SessionIndex.sync`. */
export async function syncIndex(
  index: IndexConnection,
  root: string,
  onProgress?: SessionListProgress,
): Promise<SyncReport> {
  const before = { ...index.counts };
  index.unreadable.clear();
  let sessions = await syncPending(index, root, onProgress);
  if (sessions === undefined) {
    const options = {
      withText: false,
      records: true,
      ...(onProgress === undefined ? {} : { onProgress }),
    };
    const nested = await index.listProjects(root, options);
    const flat = await index.listInDir(root, options);
    sessions = nested.length + flat.length;
  }
  const counts = zeroCounts();
  for (const kind of Object.keys(counts) as (keyof SyncCounts)[]) {
    counts[kind] = index.counts[kind] - before[kind];
  }
  return { sessions, counts, unreadable: [...index.unreadable] };
}

/**
 * A sync of only the files their stat does not vouch for (`stat-check.ts`), when that stands
 * for a full one: no covered row lost its file, and at most a tenth of the files are pending
 * (with more, a full listing costs about the same). Resolves how many sessions there are, or
 * undefined when the full sync must run.
 */
async function syncPending(
  index: IndexConnection,
  root: string,
  onProgress?: SessionListProgress,
): Promise<number | undefined> {
  let check: StatCheck;
  try {
    check = statCheck(index.db, root);
  } catch (error) {
    if (!isSqliteError(error)) throw error;
    return undefined; // the full sync meets the same trouble and says what it did
  }
  if (check.lost || check.pending.length * 10 > check.files) return undefined;
  for (const dir of check.unreadable) index.unreadable.add(dir);
  let listed = 0;
  if (check.pending.length > 0) {
    // The listing's own per-file step for each pending file, in a scope that holds no row, so
    // that nothing else is taken for gone.
    const total = check.pending.length;
    const pending = async (cache: SessionInfoCache | null) =>
      cache === null
        ? []
        : check.pending.flatMap((path, i) => {
            const info = cache.get(path) ?? [];
            onProgress?.(i + 1, total);
            return info;
          });
    const db = index.db;
    const fellBackBefore = index.fellBack;
    index.fellBack = false;
    const options = { withText: false, records: true };
    listed = (await index.guarded(pending, NO_SCOPE, options)).length;
    const failed = index.fellBack;
    index.fellBack = fellBackBefore;
    // The index was rebuilt (the vouched rows went with it) or failed: what the check found
    // no longer holds, and the full sync (which says what it did) reads what the files say.
    if (index.db !== db || failed) return undefined;
  }
  const vouched = check.files - check.pending.length;
  index.counts.unchanged += vouched;
  index.statOnlyCount += vouched;
  return check.sessions + listed;
}
