/**
 * The rows `ls` prints: core's {@link SessionInfo} for each session plus what only a full load
 * tells (entries, branch tips, problems) and the file size. Only reads.
 */

import { join } from "node:path";
import {
  encodeCwd,
  listAllSessions,
  listSessions,
  listSessionsInDir,
  type SessionInfo,
} from "@pi-sessions/core";
import { countLeaves, loadSession } from "./load-session.js";
import { problemsOf } from "./problems.js";
import type { Progress } from "./progress.js";

/** One session as `ls` shows it; `ls --json` prints an array of these. */
export interface SessionRow {
  readonly path: string;
  readonly id: string;
  readonly cwd: string;
  readonly name?: string;
  readonly parentSessionPath?: string;
  readonly created: Date;
  readonly modified: Date;
  /** Message entries (core's `messageCount`). */
  readonly messageCount: number;
  /** The first user message, or `(no messages)`. */
  readonly firstMessage: string;
  /** Entries with an id (every type). */
  readonly entries: number;
  /** Branch tips: entries no other entry names as parent. */
  readonly branches: number;
  /** File size in bytes. */
  readonly size: number;
  /** How many problems `check` would report (0 for a healthy file). */
  readonly problems: number;
}

/** Which sessions to list: all of them, or those of one working directory. */
export type ListScope = { readonly all: true } | { readonly all: false; readonly cwd: string };

/** Newest first; ties keep their order (the sort is stable). */
function byModifiedDesc(a: { modified: Date }, b: { modified: Date }): number {
  return b.modified.getTime() - a.modified.getTime();
}

/**
 * The infos of a scope. `all`: every project directory under the root plus files lying in the
 * root itself (a `--dir` may name one project directory). A cwd: that cwd's default directory
 * (empty header cwds match there, W17) and files in the root whose header cwd matches.
 */
async function infosOf(root: string, scope: ListScope, progress: Progress): Promise<SessionInfo[]> {
  const onProgress = (done: number, total: number): void => progress.update(done, total);
  const options = { cache: null, onProgress };
  if (scope.all) {
    const nested = await listAllSessions(root, options);
    const flat = await listSessionsInDir(root, options);
    return [...nested, ...flat].sort(byModifiedDesc);
  }
  const own = await listSessions(join(root, encodeCwd(scope.cwd)), {
    ...options,
    filterCwd: scope.cwd,
    emptyCwdMatches: true,
  });
  const flat = await listSessions(root, {
    ...options,
    filterCwd: scope.cwd,
    emptyCwdMatches: false,
  });
  return [...own, ...flat].sort(byModifiedDesc);
}

/** A row from an info and a full (read-only) load of the same file. */
function rowOf(info: SessionInfo): SessionRow {
  const { allMessagesText: _omitted, ...rest } = info;
  let entries = 0;
  let branches = 0;
  let size = 0;
  let problems = 0;
  try {
    const loaded = loadSession(info.path);
    entries = loaded.entries.length;
    branches = countLeaves(loaded.entries);
    size = loaded.size;
    problems = problemsOf(loaded).length;
  } catch {
    // Gone or damaged since it was listed: keep the row with what the listing saw.
    problems = 1;
  }
  return { ...rest, entries, branches, size, problems };
}

/**
 * The sessions of a scope, newest first, with their counts. `allMessagesText` is left out:
 * it is the whole transcript, far too big for a listing.
 */
export async function listSessionRows(
  root: string,
  scope: ListScope,
  progress: Progress,
): Promise<SessionRow[]> {
  const infos = await infosOf(root, scope, progress);
  const rows: SessionRow[] = [];
  for (let i = 0; i < infos.length; i++) {
    rows.push(rowOf(infos[i] as SessionInfo));
    progress.update(i + 1, infos.length);
  }
  progress.done();
  return rows;
}
