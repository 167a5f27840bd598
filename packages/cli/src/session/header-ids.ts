/**
 * The ids `<session>` arguments resolve against, read from the session files' headers, and the
 * short ids of `short-ids.ts` measured against them (for a table that shows only some sessions).
 */

import { readHeader } from "@pi-sessions/core/internal";
import { sessionFilesOf } from "../io/find-session-files.js";
import { shortIdsAmong } from "./short-ids.js";

/**
 * The header id of each file that has one (first record within core's default read limit),
 * with its path: what `<session>` ids resolve against. Files without one are left out.
 */
export function headerIdsOf(files: readonly string[]): { path: string; id: string }[] {
  const ids: { path: string; id: string }[] = [];
  for (const path of files) {
    const id = readHeader(path)?.id;
    if (typeof id === "string") ids.push({ path, id });
  }
  return ids;
}

/**
 * {@link shortIdsAmong} the header ids of every session file under `root` (each file's first
 * line read once): for a table that shows only some sessions, since a `<session>` argument
 * resolves against all of them. Throws exit 2 when the root cannot be listed.
 */
export function shortIdsUnder(root: string): (id: string) => string {
  return shortIdsAmong(headerIdsOf(sessionFilesOf(root, false).files).map((entry) => entry.id));
}
