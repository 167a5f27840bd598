/** `ls`'s infos from the session index: core's listings, answered from the index's rows. */

import { newestFirst } from "@pi-sessions/core/internal";
import type { SessionIndex } from "@pi-sessions/index";
import type { Progress } from "../io/progress.js";
import { rowOfSummary, type SessionLister, type SessionRow } from "./ls-rows.js";

/** A lister over `index`; the transcript text is left out (`ls` never shows it). */
export function indexLister(index: SessionIndex): SessionLister {
  return {
    projects: (root, options) => index.listProjects(root, { ...options, withText: false }),
    inDir: (dir, options) => index.listInDir(dir, { ...options, withText: false }),
    dir: (dir, options) => index.listDir(dir, { ...options, withText: false }),
  };
}

/**
 * `ls --all`'s rows from the index's stored answers, checked by one stat per file, in the order
 * the listings give (`SessionIndex.listAllSummaries`), with how many `*.jsonl` files it met;
 * `undefined` when the index failed (the caller lists through {@link indexLister}, which says
 * what happened).
 */
export function indexRowsOfAll(
  index: SessionIndex,
  root: string,
  progress: Progress,
): { rows: SessionRow[]; files: number } | undefined {
  const listed = index.listAllSummaries(root, (done, total) => progress.update(done, total));
  progress.done();
  if (listed === undefined) return undefined;
  const all = [...listed.nested, ...listed.flat].sort((a, b) =>
    newestFirst(a.modified ?? Number.NaN, b.modified ?? Number.NaN),
  );
  return { rows: all.map(rowOfSummary), files: listed.files };
}
