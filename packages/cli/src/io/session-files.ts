/**
 * Finding session files under a sessions root (SPEC §1 layout: `<root>/--<cwd>--/<file>.jsonl`).
 * A root given with `--dir` may also be a single project directory with the files directly in
 * it, so both levels are read. Only reads; a missing root yields no files.
 */

import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Whether `path` exists and is a directory. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The `*.jsonl` files directly in `dir` (sorted by name for stable output); `[]` if unreadable. */
export function jsonlFilesIn(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.name.endsWith(".jsonl") && (e.isFile() || e.isSymbolicLink()))
    .map((e) => join(dir, e.name))
    .sort();
}

/**
 * Every session file of a root: the `*.jsonl` files in it and in each directory directly under
 * it (symlinked directories followed), sorted by path. Deeper levels are not searched: the
 * store never writes there, and backups of `check --repair` live beside their files with
 * another suffix.
 */
export function sessionFilesUnder(root: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const files = jsonlFilesIn(root);
  for (const entry of entries) {
    if (!entry.isDirectory() && !entry.isSymbolicLink()) continue;
    files.push(...jsonlFilesIn(join(root, entry.name)));
  }
  return files.sort();
}
