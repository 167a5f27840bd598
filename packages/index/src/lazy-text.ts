/**
 * `allMessagesText` read when something reads it. A warm listing of ten thousand sessions
 * otherwise spends most of its time copying every session's joined message text out of the
 * index (tens of megabytes), while pi's picker reads that text only once the user types a search
 * (`session-selector-search.js`); every other field is in the row the listing read anyway.
 *
 * The info keeps the text as an accessor of its own in its place among the keys (core's
 * `decodeListingAnswer`), so whatever reads the info (equality, spreading, `JSON.stringify`,
 * `structuredClone`) sees what the file listing gives. What the first read fetches is the file's
 * text as the listing found it: the row's, while the row is still the one the file's stat
 * vouched for; once it is not (the file was written since, the index closed or failing), the
 * file's own, read as core's listing reads it.
 */

import { readSessionInfoSync } from "@pi-sessions/core/internal";
import type { ListedRow, Statements } from "./statements.js";

/**
 * What reads the text of the file at `path` that the vouched `row` describes: from `st` while
 * the row is unchanged, else from the file (`""` when it is no longer a readable session: a
 * listing's info never throws on read).
 */
export function textOnFirstRead(st: Statements, row: ListedRow, path: string): () => string {
  return () => storedText(st, row) ?? readSessionInfoSync(path)?.info?.allMessagesText ?? "";
}

/** The row's text while the row is unchanged; `undefined` when it changed or the index fails. */
function storedText(st: Statements, row: ListedRow): string | undefined {
  try {
    return st.textWhileUnchanged(row);
  } catch {
    return undefined; // closed or failing: the file says it
  }
}
