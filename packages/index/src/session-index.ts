/**
 * `openSessionIndex`: a sidecar SQLite index of session folders that answers listings with
 * exactly the `SessionInfo` values core's `SessionManager.list` / `listAll` give, reading only
 * what changed since the last run, plus full-text search over the transcripts. The index is a
 * cache and is never trusted over the files: every answer first brings the files it covers up
 * to date, and any trouble with the index file itself (damaged, deleted, disk full, locked)
 * ends in a direct read of the files with a notice saying what happened.
 */

import type { Stats } from "node:fs";
import type { SessionInfo, SessionListProgress, VouchedLayout } from "@pi-sessions/core";
import {
  defaultSessionDirPath,
  getSessionsRoot,
  listAllSessions,
  listSessions,
  listSessionsInDir,
  resolveCwd,
  resolveSessionDir,
  type SessionInfoCache,
  samePath,
} from "@pi-sessions/core/internal";
import { DEPTH, type Depth } from "./file-index.js";
import { IndexInfoCache, type SyncCounts, zeroCounts } from "./index-cache.js";
import {
  type IndexDirListingOptions,
  type IndexListed,
  type IndexListingOptions,
  indexSettings,
  type Scope,
  type SessionIndexOptions,
} from "./index-options.js";
import { dirScope, NO_SCOPE, projectsScope, pruneGone } from "./listing-scope.js";
import {
  describe,
  IndexUnavailableError,
  isDamagedIndex,
  isSqliteError,
  openDatabase,
  openIndexConnection,
  removeIndexFile,
} from "./open-database.js";
import { quickListing } from "./quick-listing.js";
import { resetSchema } from "./schema.js";
import { ftsQuery, type SearchFilters, type SearchHit, searchIndex } from "./search.js";
import { type IndexedSession, openIndexedSession, StaleLineError } from "./session-query.js";
import { DEFAULT_SETTLE_MS, settleRows } from "./settled.js";
import { type Database, scalar } from "./sqlite.js";
import { type StatCheck, statCheck } from "./stat-check.js";
import { Statements } from "./statements.js";
import type { QuickListing } from "./stored-walk.js";
import { type VerifyReport, verifyIndex } from "./verify.js";
import { vouchedLayout } from "./vouched-layout.js";

/**
 * An open index. Its listings take the same arguments as `SessionManager.list` / `listAll`
 * and resolve the same values; the files themselves are only ever read.
 */
export class SessionIndex {
  private db: Database;
  private st: Statements;
  /** How many files the listings since opening found in each state. */
  readonly counts: SyncCounts = zeroCounts();
  private statOnlyCount = 0;
  private lookupCount = 0;
  /** Whether a listing since it was last cleared read the files because the index failed. */
  private fellBack = false;
  /** Folders the last sync's listings could not look into (their rows were kept). */
  private readonly unreadable = new Set<string>();

  /** @internal Use {@link openSessionIndex}. */
  constructor(
    /** The index file. */
    readonly file: string,
    private readonly busyTimeoutMs: number,
    private readonly notice: (message: string) => void,
    private readonly settleMs: number = DEFAULT_SETTLE_MS,
  ) {
    this.db = openIndexConnection(file, busyTimeoutMs, notice);
    this.st = new Statements(this.db);
  }

  /** The sessions of one working directory, as `SessionManager.list(cwd, sessionDir, …)`. */
  list(
    cwd: string,
    sessionDir?: string,
    onProgress?: SessionListProgress,
    signal?: AbortSignal,
  ): Promise<SessionInfo[]> {
    const dir = sessionDir ? resolveSessionDir(sessionDir) : defaultSessionDirPath(resolveCwd(cwd));
    const emptyCwdMatches = samePath(dir, defaultSessionDirPath(resolveCwd(cwd)));
    return this.listDir(dir, {
      filterCwd: resolveCwd(cwd),
      emptyCwdMatches,
      ...(onProgress === undefined ? {} : { onProgress }),
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /** Every session under the sessions root, or of one directory, as `SessionManager.listAll`. */
  listAll(onProgress?: SessionListProgress, signal?: AbortSignal): Promise<SessionInfo[]>;
  listAll(
    sessionDir?: string,
    onProgress?: SessionListProgress,
    signal?: AbortSignal,
  ): Promise<SessionInfo[]>;
  listAll(
    first?: string | SessionListProgress,
    second?: SessionListProgress | AbortSignal,
    third?: AbortSignal,
  ): Promise<SessionInfo[]> {
    if (typeof first !== "string") {
      const signal = second as AbortSignal | undefined;
      return this.listProjects(getSessionsRoot(), { onProgress: first, signal });
    }
    const onProgress = second as SessionListProgress | undefined;
    return this.listDir(resolveSessionDir(first), { onProgress, signal: third });
  }

  /** Core's `listSessions(dir, options)` answered from the index. */
  listDir<O extends IndexDirListingOptions>(dir: string, options: O = {} as O) {
    const scope = dirScope(this.st, dir);
    return this.guarded(
      (cache) => listSessions(dir, { ...options, cache }),
      scope,
      options,
    ) as Promise<IndexListed<O>[]>;
  }

  /** Core's `listAllSessions(root, options)` (every project directory) from the index. */
  listProjects<O extends IndexListingOptions>(root: string, options: O = {} as O) {
    const scope = projectsScope(this.db, root);
    return this.guarded(
      (cache) => listAllSessions(root, { ...options, cache }),
      scope,
      options,
    ) as Promise<IndexListed<O>[]>;
  }

  /** Core's `listSessionsInDir(dir, options)` (no cwd filter) from the index. */
  listInDir<O extends IndexListingOptions>(dir: string, options: O = {} as O) {
    const scope = dirScope(this.st, dir);
    return this.guarded(
      (cache) => listSessionsInDir(dir, { ...options, cache }),
      scope,
      options,
    ) as Promise<IndexListed<O>[]>;
  }

  /**
   * Runs a listing through the index; on index trouble, rebuilds a damaged index (ours only)
   * and tries once more, else (or if that fails too) reads the files directly (`cache: null`).
   * Either way the caller gets what the files say, and the notice callback hears what happened.
   */
  private async guarded(
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
        for (const [kind, n] of Object.entries(cache.counts)) {
          this.counts[kind as keyof SyncCounts] += n;
        }
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

  /**
   * `ls --all`'s listing: core's `listAllSessions(root)` and `listSessionsInDir(root)` with
   * shapes and without text, as plain summaries in the same order, from the stored answers
   * checked by one stat per file (`quick-listing.ts`). `undefined` when the index failed: the
   * caller runs those listings, which say what happened and read the files.
   */
  listAllSummaries(
    root: string,
    onProgress?: (done: number, total: number) => void,
  ): QuickListing | undefined {
    try {
      const timing = { settleMs: this.settleMs, busyTimeoutMs: this.busyTimeoutMs };
      const listed = quickListing(this.db, this.st, root, timing, onProgress);
      for (const [kind, n] of Object.entries(listed.counts)) {
        this.counts[kind as keyof SyncCounts] += n;
      }
      this.statOnlyCount += listed.statOnly;
      this.lookupCount += listed.files;
      return listed;
    } catch (error) {
      if (!isSqliteError(error)) throw error;
      return undefined;
    }
  }

  /**
   * Brings the index up to date with every session under `root` (default: pi's sessions root):
   * its project directories and files lying in the root itself, every record and its search
   * text stored (a listing alone stores only the listing: see {@link listProjects}). Resolves
   * how many sessions there are, what was done to the files, and the folders that could not be
   * read (their rows are kept, not taken for deleted). `onProgress` is told as a listing tells
   * it, over the files that had to be read.
   */
  async sync(
    root: string = getSessionsRoot(),
    onProgress?: SessionListProgress,
  ): Promise<{ sessions: number; counts: SyncCounts; unreadable: string[] }> {
    const before = { ...this.counts };
    this.unreadable.clear();
    let sessions = await this.syncPending(root, onProgress);
    if (sessions === undefined) {
      const options = {
        withText: false,
        records: true,
        ...(onProgress === undefined ? {} : { onProgress }),
      };
      const nested = await this.listProjects(root, options);
      const flat = await this.listInDir(root, options);
      sessions = nested.length + flat.length;
    }
    const counts = zeroCounts();
    for (const kind of Object.keys(counts) as (keyof SyncCounts)[]) {
      counts[kind] = this.counts[kind] - before[kind];
    }
    return { sessions, counts, unreadable: [...this.unreadable] };
  }

  /**
   * A sync of only the files their stat does not vouch for (`stat-check.ts`), when that stands
   * for a full one: no covered row lost its file, and at most a tenth of the files are pending
   * (with more, a full listing costs about the same). Resolves how many sessions there are, or
   * undefined when the full sync must run.
   */
  private async syncPending(
    root: string,
    onProgress?: SessionListProgress,
  ): Promise<number | undefined> {
    let check: StatCheck;
    try {
      check = statCheck(this.db, root);
    } catch (error) {
      if (!isSqliteError(error)) throw error;
      return undefined; // the full sync meets the same trouble and says what it did
    }
    if (check.lost || check.pending.length * 10 > check.files) return undefined;
    for (const dir of check.unreadable) this.unreadable.add(dir);
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
      const db = this.db;
      const fellBackBefore = this.fellBack;
      this.fellBack = false;
      const options = { withText: false, records: true };
      listed = (await this.guarded(pending, NO_SCOPE, options)).length;
      const failed = this.fellBack;
      this.fellBack = fellBackBefore;
      // The index was rebuilt (the vouched rows went with it) or failed: what the check found
      // no longer holds, and the full sync (which says what it did) reads what the files say.
      if (this.db !== db || failed) return undefined;
    }
    const vouched = check.files - check.pending.length;
    this.counts.unchanged += vouched;
    this.statOnlyCount += vouched;
    return check.sessions + listed;
  }

  /**
   * Searches the transcripts under `filters.dir` (default: pi's sessions root), after bringing
   * the index up to date with them (their records too: after a first listing stored only the
   * listing, the first search reads each file once more, telling `onProgress`), so no hit
   * points at text a file no longer holds. Throws `SearchQueryError` for a query without words.
   */
  async search(
    query: string,
    filters: SearchFilters = {},
    onProgress?: SessionListProgress,
  ): Promise<SearchHit[]> {
    ftsQuery(query); // a bad query fails before any work
    const root = filters.dir === undefined ? getSessionsRoot() : resolveSessionDir(filters.dir);
    if (filters.refresh !== false) {
      this.fellBack = false;
      await this.sync(root, onProgress);
      // A sync that could not write leaves rows the files may no longer back (a deleted
      // session's text): searching them would return what the files no longer say.
      if (this.fellBack) {
        throw new IndexUnavailableError(`index ${this.file} could not be brought up to date`);
      }
    }
    return searchIndex(this.db, root, query, filters);
  }

  /**
   * One session file through the index, its rows brought up to date first (see
   * `session-query.ts`); `null` when the index does not answer for this file or failed (told to
   * the notice callback): the caller reads the file then.
   */
  session(path: string): IndexedSession | null {
    try {
      return openIndexedSession(this.db, this.st, path);
    } catch (error) {
      if (!isSqliteError(error) && !(error instanceof StaleLineError)) throw error;
      this.notice(`index ${this.file} failed (${error.message}); read the session file directly`);
      return null;
    }
  }

  /**
   * The layout of a big session file's entries as its rows give them, for core's open
   * (`ColumnsFor`; pi's launcher wires it): only when the index's rule says the rows are the
   * file's as it is now, or the file only grew since (its new lines are indexed first), and the
   * file is regular; else `undefined`, as on any SQLite trouble (the open then checks the file).
   */
  columnsFor(path: string, stats: Stats): VouchedLayout | undefined {
    // pi waits for this at its start: another process writing the index (a listing indexing a
    // big file holds the lock for the whole file) must mean "read the file", not a wait of up
    // to the busy timeout. So SQLite answers busy at once here, and busy vouches for nothing.
    const busyTimeout = scalar(this.db, "PRAGMA busy_timeout");
    this.db.exec("PRAGMA busy_timeout = 0");
    try {
      return vouchedLayout(this.db, this.st, path, stats);
    } catch (error) {
      if (!isSqliteError(error)) throw error;
      return undefined;
    } finally {
      this.db.exec(`PRAGMA busy_timeout = ${Number(busyTimeout)}`);
    }
  }

  /** Checks the index against the files under `root` without changing either. */
  verify(root: string = getSessionsRoot()): VerifyReport {
    return verifyIndex(this.db, this.st, this.file, resolveSessionDir(root));
  }

  /**
   * Drops everything the index holds and indexes the sessions under `root` again (for an index
   * that `verify` found wrong; a damaged file is rebuilt without being asked).
   */
  async rebuild(
    root: string = getSessionsRoot(),
    onProgress?: SessionListProgress,
  ): Promise<{ sessions: number; counts: SyncCounts; unreadable: string[] }> {
    resetSchema(this.db, this.busyTimeoutMs, this.file === ":memory:");
    this.st = new Statements(this.db);
    return this.sync(resolveSessionDir(root), onProgress);
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

  /**
   * How many `*.jsonl` files the listings since opening met, sessions or not: beside a listing's
   * length, how many files it left out (no valid header first), without walking the folder again.
   */
  get filesMet(): number {
    return this.lookupCount;
  }

  /** Of the `unchanged` files since opening, how many their stat alone vouched for (unopened). */
  get statOnly(): number {
    return this.statOnlyCount;
  }

  /** Closes the index. */
  close(): void {
    this.db.close();
  }
}

/**
 * Opens (creating when needed) the index at `options.file`, else `$PI_SESSIONS_INDEX`, else
 * `$XDG_CACHE_HOME/pi-sessions/index.sqlite` or `~/.cache/pi-sessions/index.sqlite`. Throws
 * `IndexUnavailableError` when SQLite cannot be loaded or the file cannot be opened or made.
 */
export function openSessionIndex(options: SessionIndexOptions = {}): SessionIndex {
  const { file, busyTimeoutMs, notice, settleMs } = indexSettings(options);
  return new SessionIndex(file, busyTimeoutMs, notice, settleMs);
}
