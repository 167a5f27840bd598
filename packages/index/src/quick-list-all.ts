/**
 * `ls --all`'s listing from the index in one call, for a process that lists and exits (the
 * CLI): it opens the index, walks the folder against the stored rows (`stored-walk.ts`) and
 * closes it again, loading the per-file step (`quick-listing.ts`: core's folds, the records,
 * the plugins' usage) only when a file's stat does not vouch for its row or a row lost its
 * file. A warm listing thus loads and runs little more than the walk, one query and a stat per
 * file; what it answers is what {@link SessionIndex.listAllSummaries} answers.
 */

import { indexSettings, type SessionIndexOptions } from "./index-options.js";
import { openIndexConnection } from "./open-database.js";
import { isSqliteError } from "./sqlite.js";
import { prepareStampsBetween, Statements } from "./statements.js";
import { type QuickListing, vouchedListing, walkStored } from "./stored-walk.js";

/** Options of {@link quickListAll}. */
export interface QuickListAllOptions extends SessionIndexOptions {
  /** Told `(done, total)` as files are answered. */
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * The sessions of every project directory under `root` and of the files in `root` itself, as
 * `SessionIndex.listAllSummaries(root)` gives them, through the index `options` name (opened
 * and closed here). Throws `IndexUnavailableError` when the index cannot be opened (as
 * `openSessionIndex` does); resolves `undefined` when it failed while listing, so that the
 * caller runs the listings, which say what happened and read the files.
 */
export async function quickListAll(
  root: string,
  options: QuickListAllOptions = {},
): Promise<QuickListing | undefined> {
  const settings = indexSettings(options);
  const db = openIndexConnection(settings.file, settings.busyTimeoutMs, settings.notice);
  try {
    // One statement prepared, not all of them: a warm listing runs no other.
    const walk = walkStored(prepareStampsBetween(db), root, options.onProgress);
    if (walk.pending === 0 && !walk.unmet) return vouchedListing(walk);
    const { finishListing } = await import("./quick-listing.js");
    return finishListing(db, new Statements(db), root, walk, settings, options.onProgress);
  } catch (error) {
    if (!isSqliteError(error)) throw error;
    return undefined;
  } finally {
    db.close();
  }
}
