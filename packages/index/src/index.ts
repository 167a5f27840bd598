/**
 * @pi-sessions/index — a sidecar SQLite index of pi session folders: listings that read only
 * what changed since the last run and return exactly what core's `SessionManager.list` /
 * `listAll` return, full-text search over the transcripts, and a check and rebuild of the
 * index against the files. The index lives outside the sessions folder and is never trusted
 * over the files.
 *
 * @packageDocumentation
 */

export type { SyncKind } from "./file-sync.js";
export type { SyncCounts } from "./index-cache.js";
export type {
  IndexDirListingOptions,
  IndexListed,
  IndexListingOptions,
  SessionIndexOptions,
} from "./index-options.js";
export { defaultIndexFile, INDEX_FILE_ENV, INDEX_FILE_NAME } from "./location.js";
export { IndexUnavailableError } from "./open-database.js";
export { type QuickListAllOptions, quickListAll } from "./quick-list-all.js";
export type { SearchFilters, SearchHit } from "./search.js";
export { ftsQuery, SearchQueryError } from "./search.js";
export { openSessionIndex, SessionIndex } from "./session-index.js";
export type { IndexedSession, TreeTop, UsageSession } from "./session-query.js";
export { StaleLineError } from "./session-query.js";
export type { ListedSummary, QuickListing } from "./stored-walk.js";
export { sessionFilesIn, sessionFilesUnder } from "./sync-covered-files.js";
export type { VerifyProblem, VerifyReport } from "./verify.js";
