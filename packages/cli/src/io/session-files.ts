/**
 * Finding session files under a sessions root (SPEC §1 layout: `<root>/--<cwd>--/<file>.jsonl`).
 * A root given with `--dir` may also be a single project directory with the files directly in
 * it, so both levels are read. Only reads; a missing root yields no files.
 */

import { statSync } from "node:fs";

/** Whether `path` exists and is a directory. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Every session file of a root: the `*.jsonl` files in it and in each directory directly under
 * it (symlinked directories followed), sorted by path (`sessionFilesUnder`) or in directory order
 * (`sessionFilesIn`, for a count) — the files a listing reads, from the index package's one
 * implementation. Deeper levels are not searched: the store never writes
 * there, and backups of `check --repair` live beside their files with another suffix.
 */
export { sessionFilesIn, sessionFilesUnder } from "@pi-sessions/index";
