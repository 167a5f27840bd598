/**
 * What an open index keeps between its calls: the connection and its statements, the counts
 * of what the listings found, and the one way a listing runs through it (`guarded`): on index
 * trouble a damaged index (provably ours) is made anew and the listing tried once more, else
 * the files are read directly with a notice saying what happened. `SessionIndex` is the public
 * face over it (`session-index.ts`); the syncs are in `index-sync.ts`.
 */

import type { SessionInfo } from "@pi-sessions/core";
import {
  listAllSessions,
  listSessions,
  listSessionsInDir,
  type SessionInfoCache,
} from "@pi-sessions/core/internal";
import { DEPTH, type Depth } from "./file-index.js";
import { IndexInfoCache, type SyncCounts, zeroCounts } from "./index-cache.js";
import type {
  IndexDirListingOptions,
  IndexListed,
  IndexListingOptions,
  Scope,
} from "./index-options.js";
import { dirScope, projectsScope, pruneGone } from "./listing-scope.js";
import {
  describe,
  IndexUnavailableError,
  isDamagedIndex,
  isSqliteError,
  openDatabase,
  openIndexConnection,
  removeIndexFile,
} from "./open-database.js";
import { resetSchema } from "./schema.js";
import { settleRows } from "./settled.js";
import type { Database } from "./sqlite.js";
import { Statements } from "./statements.js";

/** An open index's connection and counts (see the module comment). */
export class IndexConnection {
  db: Database;
  st: Statements;
  /** How many files the listings since opening found in each state. */
  readonly counts: SyncCounts = zeroCounts();
  statOnlyCount = 0;
  lookupCount = 0;
  /** Whether a listing since it was last cleared read the files because the index failed. */
  fellBack = false;
  /** Folders the last sync's listings could not look into (their rows were kept). */
  readonly unreadable = new Set<string>();

  constructor(
    readonly file: string,
    readonly busyTimeoutMs: number,
    readonly notice: (message: string) => void,
    readonly settleMs: number,
  ) {
    this.db = openIndexConnection(file, busyTimeoutMs, notice);
    this.st = new Statements(this.db);
  }

  /** Core's `listSessions(dir, options)` answered from the index. */
  listDir<O extends IndexDirListingOptions>(dir: string, options: O): Promise<IndexListed<O>[]> {
    return this.listed(dirScope(this.st, dir), options, (o) => listSessions(dir, o));
  }

  /** Core's `listAllSessions(root, options)` (every project directory) from the index. */
  listProjects<O extends IndexListingOptions>(root: string, options: O): Promise<IndexListed<O>[]> {
    return this.listed(projectsScope(this.db, root), options, (o) => listAllSessions(root, o));
  }

  /** Core's `listSessionsInDir(dir, options)` (no cwd filter) from the index. */
  listInDir<O extends IndexListingOptions>(dir: string, options: O): Promise<IndexListed<O>[]> {
    return this.listed(dirScope(this.st, dir), options, (o) => listSessionsInDir(dir, o));
  }

  /** One of core's listings over `scope`, `guarded`, given `options` with the index's cache. */
  private listed<O extends IndexListingOptions>(
    scope: Scope,
    options: O,
    listing: (options: O & { cache: SessionInfoCache | null }) => Promise<SessionInfo[]>,
  ): Promise<IndexListed<O>[]> {
    return this.guarded((cache) => listing({ ...options, cache }), scope, options) as Promise<
      IndexListed<O>[]
    >;
  }

  /**
   * Runs a listing through the index; on index trouble, rebuilds a damaged index (ours only)
   * and tries once more, else (or if that fails too) reads the files directly (`cache: null`).
   * Either way the caller gets what the files say, and the notice callback hears what happened.
   */
  async guarded(
    listing: (cache: SessionInfoCache | null) => Promise<SessionInfo[]>,
    scope: Scope,
    options: IndexListingOptions,
  ): Promise<SessionInfo[]> {
    const depth: Depth = options.records === true ? DEPTH.full : DEPTH.listing;
    for (let attempt = 0; attempt < 2; attempt++) {
      const withText = options.withText !== false;
      const { db, st, settleMs } = this;
      const cache = new IndexInfoCache(db, st, withText, scope.prefix, settleMs, depth);
      try {
        const result = await listing(cache);
        cache.batch.commit();
        settleRows(this.db, this.st, cache.settles, this.busyTimeoutMs);
        this.statOnlyCount += cache.statOnly;
        this.lookupCount += cache.lookups;
        const pruned = pruneGone(this.db, this.st, cache, scope);
        this.counts.gone += pruned.dropped;
        for (const dir of pruned.unreadable) this.unreadable.add(dir);
        this.addCounts(cache.counts);
        return result;
      } catch (error) {
        cache.batch.rollback();
        if (!isSqliteError(error)) throw error; // an abort, or a bug: not the index's fault
        if (attempt === 0 && isDamagedIndex(error) && this.reopenFresh(error)) continue;
        this.notice(
          `index ${this.file} failed (${describe(error)}); read the session files directly`,
        );
        this.fellBack = true;
        break;
      }
    }
    return listing(null);
  }

  /** Adds a listing's counts of files by state to {@link counts}. */
  addCounts(counts: Readonly<SyncCounts>): void {
    for (const [kind, n] of Object.entries(counts)) {
      this.counts[kind as keyof SyncCounts] += n;
    }
  }

  /** Makes a damaged index anew, saying so; false (said too) when it is not provably ours. */
  private reopenFresh(error: Error): boolean {
    this.notice(`index ${this.file} is damaged (${describe(error)}); rebuilding it from the files`);
    try {
      this.reopen(true);
      return true;
    } catch (again) {
      if (!(again instanceof IndexUnavailableError) && !isSqliteError(again)) throw again;
      this.notice(`index ${this.file}: ${describe(again)}`);
      return false;
    }
  }

  /** Closes and opens the connection again; `fresh` removes the file first. */
  private reopen(fresh: boolean): void {
    // Proven ours (else it throws, leaving the connection as it is) before anything is removed.
    if (fresh) removeIndexFile(this.file);
    try {
      this.db.close();
    } catch {
      // A broken connection may fail to close; it is dropped either way.
    }
    this.db = openDatabase(this.file, this.busyTimeoutMs).db;
    this.st = new Statements(this.db);
  }

  /** Drops everything the index holds (its schema made anew, empty). */
  reset(): void {
    resetSchema(this.db, this.busyTimeoutMs, this.file === ":memory:");
    this.st = new Statements(this.db);
  }
}
