/**
 * `sync <dirA> <dirB>`: every session of two sessions roots (the `--<cwd>--/<file>.jsonl`
 * layout pi writes) synced pair by pair; a session present under one root only is copied to
 * the same relative path under the other.
 */

import { join, relative, sep } from "node:path";
import { type PathProblem, scanSessionFiles } from "@pi-sessions/core/internal";
import { usageError } from "../io/errors.js";
import type { Progress } from "../io/progress.js";
import { type PairOptions, type PairResult, syncPair } from "./sync-pair.js";

/**
 * The sessions under a root: relative paths `<dir>/<file>.jsonl`, as pi's listing finds them —
 * regular files only (core's walk, `scanSessionFiles`: nothing else is ever opened). A folder
 * or `*.jsonl` entry that cannot be read goes to `problems` (relative too) instead of being
 * skipped in silence; a root that cannot be listed is exit 2.
 */
export function sessionsUnder(root: string, problems: PathProblem[] = []): string[] {
  const scan = scanSessionFiles(root);
  if (scan.rootProblem !== undefined) {
    throw usageError(`cannot read ${root}: ${scan.rootProblem.reason}`);
  }
  const inFolder = (path: string) => relative(root, path).split(sep).join("/");
  for (const p of scan.problems) problems.push({ ...p, path: inFolder(p.path) });
  return scan.files.map(inFolder).filter((rel) => rel.includes("/"));
}

/** A pair that was not synced because a side could not be read. */
function unreadablePair(problem: PathProblem): PairResult {
  const what = problem.what === "folder" ? "folder " : "";
  return {
    session: problem.path,
    status: "failed",
    message: `cannot read ${what}${problem.reason}`,
  };
}

/** Syncs every session of `rootA` and `rootB`, in path order. */
export async function syncFolders(
  rootA: string,
  rootB: string,
  options: PairOptions,
  progress: Progress,
): Promise<PairResult[]> {
  const problems: PathProblem[] = [];
  const sessions = [
    ...new Set([...sessionsUnder(rootA, problems), ...sessionsUnder(rootB, problems)]),
  ];
  // A session one side cannot read is not synced at all: copying the other side's over it, or
  // into a folder that could not be listed, would not be a merge.
  const blocked = new Set(problems.map((p) => p.path));
  const inBlocked = (rel: string) => blocked.has(rel) || blocked.has(rel.split("/")[0] as string);
  const results: PairResult[] = problems.map(unreadablePair);
  sessions.sort();
  for (const session of sessions) {
    if (inBlocked(session)) continue;
    results.push(await syncPair(session, join(rootA, session), join(rootB, session), options));
    progress.update(results.length, sessions.length);
  }
  progress.done();
  return results;
}
