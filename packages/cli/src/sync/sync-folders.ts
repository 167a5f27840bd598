/**
 * `sync <dirA> <dirB>`: every session of two sessions roots (the `--<cwd>--/<file>.jsonl`
 * layout pi writes) synced pair by pair; a session present under one root only is copied to
 * the same relative path under the other.
 */

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Progress } from "../io/progress.js";
import { type PairOptions, type PairResult, syncPair } from "./sync-pair.js";

/** The sessions under a root: relative paths `<dir>/<file>.jsonl`, as pi's listing finds them. */
export function sessionsUnder(root: string): string[] {
  const out: string[] = [];
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return out;
    throw error;
  }
  for (const dir of dirs) {
    let files: string[];
    try {
      if (!statSync(join(root, dir)).isDirectory()) continue;
      files = readdirSync(join(root, dir));
    } catch {
      continue; // vanished or unreadable while listing: not a session folder
    }
    for (const file of files) if (file.endsWith(".jsonl")) out.push(`${dir}/${file}`);
  }
  return out;
}

/** Syncs every session of `rootA` and `rootB`, in path order. */
export async function syncFolders(
  rootA: string,
  rootB: string,
  options: PairOptions,
  progress: Progress,
): Promise<PairResult[]> {
  const sessions = [...new Set([...sessionsUnder(rootA), ...sessionsUnder(rootB)])].sort();
  const results: PairResult[] = [];
  for (const session of sessions) {
    results.push(await syncPair(session, join(rootA, session), join(rootB, session), options));
    progress.update(results.length, sessions.length);
  }
  progress.done();
  return results;
}
