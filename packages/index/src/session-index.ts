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
  resolveCwd,
  resolveSessionDir,
  samePath,
} from "@pi-sessions/core/internal";
import type { SyncCounts } from "./index-cache.js";
import { IndexConnection } from "./index-connection.js";
import {
  type IndexDirListingOptions,
  type IndexListingOptions,
  indexSettings,
  type SessionIndexOptions,
} from "./index-options.js";
import { syncIndex } from "./index-sync.js";
import { IndexUnavailableError, isSqliteError } from "./open-database.js";
import { quickListing } from "./quick-listing.js";
import { ftsQuery, type SearchFilters, type SearchHit, searchIndex } from "./search.js";
import { type IndexedSession, openIndexedSession, StaleLineError } from "./session-query.js";
import { DEFAULT_SETTLE_MS } from "./settled.js";
import { withoutWaiting } from "./sqlite.js";
import type { QuickListing } from "./stored-walk.js";
import { type VerifyReport, verifyIndex } from "./verify.js";
import { vouchedLayout } from "./vouched-layout.js";

/**
 * An open index. Its listings take the same arguments as `SessionManager.list` / `listAll`
 * and resolve the same values; the files themselves are only ever read.
 */
export class SessionIndex {
  private readonly index: IndexConnection;
  /** How many files the listings since opening found in each state. */
  readonly counts: SyncCounts;

  /** @internal Use {@link openSessionIndex}. */
  constructor(
    /** The index file. */
    readonly file: string,
    busyTimeoutMs: number,
    notice: (message: string) => void,
    settleMs: number = DEFAULT_SETTLE_MS,
  ) {
    this.index = new IndexConnection(file, busyTimeoutMs, notice, settleMs);
    this.counts = this.index.counts;
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
    return this.index.listDir(dir, options);
  }

  /** Core's `listAllSessions(root, options)` (every project directory) from the index. */
  listProjects<O extends IndexListingOptions>(root: string, options: O = {} as O) {
    return this.index.listProjects(root, options);
  }

  /** Core's `listSessionsInDir(dir, options)` (no cwd filter) from the index. */
  listInDir<O extends IndexListingOptions>(dir: string, options: O = {} as O) {
    return this.index.listInDir(dir, options);
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
    const index = this.index;
    try {
      const timing = { settleMs: index.settleMs, busyTimeoutMs: index.busyTimeoutMs };
      const listed = quickListing(index.db, index.st, root, timing, onProgress);
      index.addCounts(listed.counts);
      index.statOnlyCount += listed.statOnly;
      index.lookupCount += listed.files;
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
  sync(
    root: string = getSessionsRoot(),
    onProgress?: SessionListProgress,
  ): Promise<{ sessions: number; counts: SyncCounts; unreadable: string[] }> {
    return syncIndex(this.index, root, onProgress);
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
      this.index.fellBack = false;
      await this.sync(root, onProgress);
      // A sync that could not write leaves rows the files may no longer back (a deleted
      // session's text): searching them would return what the files no longer say.
      if (this.index.fellBack) {
        throw new IndexUnavailableError(`index ${this.file} could not be brought up to date`);
      }
    }
    return searchIndex(this.index.db, root, query, filters);
  }

  /**
   * One session file through the index, its rows brought up to date first (see
   * `session-query.ts`); `null` when the index does not answer for this file or failed (told to
   * the notice callback): the caller reads the file then.
   */
  session(path: string): IndexedSession | null {
    try {
      return openIndexedSession(this.index.db, this.index.st, path);
    } catch (error) {
      if (!isSqliteError(error) && !(error instanceof StaleLineError)) throw error;
      this.index.notice(
        `index ${this.file} failed (${error.message}); read the session file directly`,
      );
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
    const { db, st } = this.index;
    try {
      return withoutWaiting(db, () => vouchedLayout(db, st, path, stats));
    } catch (error) {
      if (!isSqliteError(error)) throw error;
      return undefined;
    }
  }

  /** Checks the index against the files under `root` without changing either. */
  verify(root: string = getSessionsRoot()): VerifyReport {
    return verifyIndex(this.index.db, this.index.st, this.file, resolveSessionDir(root));
  }

  /**
   * Drops everything the index holds and indexes the sessions under `root` again (for an index
   * that `verify` found wrong; a damaged file is rebuilt without being asked).
   */
  async rebuild(
    root: string = getSessionsRoot(),
    onProgress?: SessionListProgress,
  ): Promise<{ sessions: number; counts: SyncCounts; unreadable: string[] }> {
    this.index.reset();
    return this.sync(resolveSessionDir(root), onProgress);
  }

  /**
   * How many `*.jsonl` files the listings since opening met, sessions or not: beside a listing's
   * length, how many files it left out (no valid header first), without walking the folder again.
   */
  get filesMet(): number {
    return this.index.lookupCount;
  }

  /** Of the `unchanged` files since opening, how many their stat alone vouched for (unopened). */
  get statOnly(): number {
    return this.index.statOnlyCount;
  }

  /** Closes the index. */
  close(): void {
    this.index.db.close();
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
