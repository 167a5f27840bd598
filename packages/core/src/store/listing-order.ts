/**
 * The orders core's listings give (SPEC §10.5, R1.6), apart from the listings themselves so
 * that a listing answered from stored rows (the index's `ls --all`) sorts by the same rules
 * without loading the session reader.
 */

/**
 * The final order of every listing, on `modified` in ms: newest first, ties keeping their
 * order (the sort is stable). One definition, for core's listings and for any store that lists
 * the same sessions from its own rows (an Invalid Date's `NaN` compares as core's does).
 */
export function newestFirst(aModifiedMs: number, bModifiedMs: number): number {
  return bModifiedMs - aModifiedMs;
}

/** The candidate order of one directory's listing (`list`, `listAll(dir)`): names descending. */
export function compareDirCandidates(a: { name: string }, b: { name: string }): number {
  return b.name.localeCompare(a.name);
}

/**
 * The candidate order of `listAll()` over every project directory: the file's mtime newest
 * first, then names descending.
 */
export function compareRootCandidates(
  a: { name: string; mtimeMs: number },
  b: { name: string; mtimeMs: number },
): number {
  return b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name);
}
