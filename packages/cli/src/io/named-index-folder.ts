/**
 * The one rule for an index file someone named (`--index FILE` or `$PI_SESSIONS_INDEX`) whose
 * folder does not exist: a typo, refused by the CLI (exit 2) and listed around by pi's
 * launcher, never a folder made. Only the built-in location's folder is created as needed.
 * Kept apart from the index's modules so that the launcher can ask it before loading them.
 */

import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Whether the folder of `file` does not exist (a file in its place, or no access, is another
 * trouble, which opening the index says).
 */
function folderIsMissing(file: string): boolean {
  try {
    statSync(dirname(file));
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/**
 * Whether the index `file` (as named, resolved against `cwd`) is one whose folder must not be
 * made: it is not the built-in location `builtIn` (or what it gives) and its folder does not
 * exist.
 */
export function isNamedIndexInMissingFolder(
  file: string,
  builtIn: string | (() => string),
  cwd: string,
): boolean {
  const path = resolve(cwd, file);
  // The folder first: the built-in location (which may cost a copy of the environment) is
  // asked only about a named file whose folder is missing.
  return (
    folderIsMissing(path) &&
    path !== resolve(cwd, typeof builtIn === "string" ? builtIn : builtIn())
  );
}
