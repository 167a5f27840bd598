/** `ls`'s infos from the session index: core's listings, answered from the index's rows. */

import type { SessionIndex, SyncCounts } from "@pi-sessions/index";
import type { SessionLister } from "./session-rows.js";

/** The files an index's listings looked up (every candidate is looked up once). */
const lookedUp = (counts: SyncCounts): number =>
  counts.unchanged + counts["caught-up"] + counts.indexed;

/** A lister over `index`; the transcript text is left out (`ls` never shows it). */
export function indexLister(index: SessionIndex): SessionLister {
  const before = lookedUp(index.counts);
  return {
    projects: (root, options) => index.listProjects(root, { ...options, withText: false }),
    inDir: (dir, options) => index.listInDir(dir, { ...options, withText: false }),
    dir: (dir, options) => index.listDir(dir, { ...options, withText: false }),
    filesSeen: () => lookedUp(index.counts) - before,
  };
}
