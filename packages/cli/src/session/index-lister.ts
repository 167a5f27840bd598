/** `ls`'s infos from the session index: core's listings, answered from the index's rows. */

import type { SessionIndex } from "@pi-sessions/index";
import type { SessionLister } from "./session-rows.js";

/** A lister over `index`; the transcript text is left out (`ls` never shows it). */
export function indexLister(index: SessionIndex): SessionLister {
  return {
    projects: (root, options) => index.listProjects(root, { ...options, withText: false }),
    inDir: (dir, options) => index.listInDir(dir, { ...options, withText: false }),
    dir: (dir, options) => index.listDir(dir, { ...options, withText: false }),
  };
}
