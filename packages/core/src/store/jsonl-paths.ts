/**
 * A directory's `*.jsonl` paths as the listings read them, apart from `discovery.ts` (which
 * reads headers) so that a walk over stored rows loads no session reader.
 */

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fsReason, type PathProblem } from "./session-scan.js";
import { errorCode } from "./store-fs.js";

/**
 * A directory's `*.jsonl` paths in listing order; `[]` if it is missing or a symlink to a file.
 * A directory that exists but cannot be listed (permissions, I/O) also gives `[]` — what the
 * reference's listings do — but is reported to `problems` when given, so that a caller which
 * answers for the folder does not take "unreadable" for "empty" (see `scanSessionFiles`).
 */
export function jsonlPaths(dir: string, problems?: PathProblem[]): string[] {
  try {
    const names = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
    // `join(dir, name)` for every name, normalising `dir` once: a file name holds no separator
    // and is never "." or "..", so only the directory part needs normalising (10,000 files).
    const prefix = join(dir, "x").slice(0, -1);
    return names.map((name) => prefix + name);
  } catch (error) {
    const code = errorCode(error);
    if (problems !== undefined && code !== "ENOENT" && code !== "ENOTDIR") {
      problems.push({ path: dir, code: code ?? "EIO", reason: fsReason(error), what: "folder" });
    }
    return [];
  }
}
