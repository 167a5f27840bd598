/**
 * The session files a sync of a sessions root covers: the `*.jsonl` files in the root and in
 * each directory directly under it, as core's listings read them. One walk for `verify`, the
 * sync's stat check and the CLI.
 */

import { type Dirent, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { jsonlPaths } from "@pi-sessions/core/internal";

/** The files, in the order the directories give them (see {@link sessionFilesUnder}). */
export function sessionFilesIn(root: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  // Directories (and symlinks, which may lead to one) are read with core's own listing of a
  // folder; a symlink to a file or an unreadable directory gives nothing, as listings skip it.
  const dirs = entries.filter((e) => e.isDirectory() || e.isSymbolicLink());
  const isDir = new Set(dirs.filter((e) => e.isDirectory()).map((e) => join(root, e.name)));
  const top = jsonlPaths(root).filter((path) => !isDir.has(path));
  return [...top, ...dirs.flatMap((e) => jsonlPaths(join(root, e.name)))];
}

/** The `*.jsonl` files in `root` and in each directory directly under it, sorted by path. */
export function sessionFilesUnder(root: string): string[] {
  return sessionFilesIn(root).sort();
}

/** Whether `dir` is a project directory of `root`: one directly under it. */
export function isProjectDir(root: string, dir: string): boolean {
  return dirname(dir) === root;
}

/** Whether a file in directory `dir` is one a sync of `root` covers (see {@link sessionFilesIn}). */
export function coveredBySync(root: string, dir: string): boolean {
  return dir === root || isProjectDir(root, dir);
}
