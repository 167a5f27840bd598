/**
 * The rows `ls` prints: core's {@link SessionInfo} for each session plus entries, branch tips,
 * problems and the file size. Each file is read once: the listing also gathers its shape
 * (core's `withShape`), which gives the counts of a regular file directly; only a file whose
 * shape is irregular (damage, legacy format, duplicate ids, a parent not written before its
 * child, …) is loaded in full so its problems are counted exactly as `check` counts them.
 * Only reads.
 */

import { join } from "node:path";
import type { SessionInfo } from "@pi-sessions/core";
import {
  encodeCwd,
  type ListingSummary,
  listAllSessions,
  listSessions,
  listSessionsInDir,
  newestFirst,
  type SessionShape,
  type ShapedSessionInfo,
} from "@pi-sessions/core/internal";
import { noProgress, type Progress } from "../io/progress.js";
import { countLeaves, loadSession } from "./load-session.js";
import { problemsOf } from "./problems.js";
import { infoOfSummary, regularRowOfSummary, type SessionRow } from "./summary-rows.js";

export type { SessionRow } from "./summary-rows.js";

/** Which sessions to list: all of them, or those of one working directory. */
export type ListScope = { readonly all: true } | { readonly all: false; readonly cwd: string };

/** Newest first; ties keep their order (the sort is stable): core's listing order. */
function byModifiedDesc(a: { modified: Date }, b: { modified: Date }): number {
  return newestFirst(a.modified.getTime(), b.modified.getTime());
}

/** Options every listing of `ls` passes. */
interface RowListingOptions {
  readonly onProgress?: (done: number, total: number) => void;
  readonly withShape: true;
}

/** Where `ls` gets its infos: core's listing functions, over the files or over an index. */
export interface SessionLister {
  /** `listAllSessions(root)`: every project directory under the root. */
  projects(root: string, options: RowListingOptions): Promise<ShapedSessionInfo[]>;
  /** `listSessionsInDir(dir)`: one directory, no cwd filter. */
  inDir(dir: string, options: RowListingOptions): Promise<ShapedSessionInfo[]>;
  /** `listSessions(dir, { filterCwd, emptyCwdMatches })`. */
  dir(
    dir: string,
    options: RowListingOptions & { filterCwd: string; emptyCwdMatches: boolean },
  ): Promise<ShapedSessionInfo[]>;
}

/** The files read directly, every time (no cache: a CLI run is one listing). */
export const directLister: SessionLister = {
  projects: (root, options) => listAllSessions(root, { ...options, cache: null }),
  inDir: (dir, options) => listSessionsInDir(dir, { ...options, cache: null }),
  dir: (dir, options) => listSessions(dir, { ...options, cache: null }),
};

/**
 * The infos of a scope. `all`: every project directory under the root plus files lying in the
 * root itself (a `--dir` may name one project directory). A cwd: that cwd's default directory
 * (empty header cwds match there, W17) and files in the root whose header cwd matches.
 */
async function infosOf(
  root: string,
  scope: ListScope,
  progress: Progress,
  lister: SessionLister,
): Promise<ShapedSessionInfo[]> {
  // No callback when nothing is drawn: a listing told of progress also keeps a sorted snapshot
  // of what it loaded so far for callers that want one, which costs on many files.
  const onProgress = (done: number, total: number): void => progress.update(done, total);
  const options =
    progress === noProgress
      ? { withShape: true as const }
      : { onProgress, withShape: true as const };
  if (scope.all) {
    const nested = await lister.projects(root, options);
    const flat = await lister.inDir(root, options);
    return [...nested, ...flat].sort(byModifiedDesc);
  }
  const own = await lister.dir(join(root, encodeCwd(scope.cwd)), {
    ...options,
    filterCwd: scope.cwd,
    emptyCwdMatches: true,
  });
  const flat = await lister.dir(root, {
    ...options,
    filterCwd: scope.cwd,
    emptyCwdMatches: false,
  });
  return [...own, ...flat].sort(byModifiedDesc);
}

/** The info's own fields, without the transcript text and the shape. */
function infoFields(
  info: SessionInfo & { readonly shape?: SessionShape },
): Omit<SessionInfo, "allMessagesText"> {
  const { allMessagesText: _text, shape: _shape, ...rest } = info;
  return rest;
}

/**
 * A row from a listed info: a regular file's counts come from its shape (the load would find
 * the same numbers and no problem); anything else gets {@link fullRowOf}.
 */
export function rowOf(info: ShapedSessionInfo): SessionRow {
  const shape = info.shape;
  if (!shape.regular) return fullRowOf(info);
  const { entries, branches, size } = shape;
  return { ...infoFields(info), entries, branches, size, problems: 0 };
}

/**
 * A row from the index's summary of a session, without building its info first: what
 * {@link rowOf} gives for the same answer (an irregular file gets {@link fullRowOf}).
 */
export function rowOfSummary(summary: ListingSummary & { readonly path: string }): SessionRow {
  return (
    regularRowOfSummary(summary) ?? fullRowOf({ ...infoOfSummary(summary), allMessagesText: "" })
  );
}

/** A row from an info and a full (read-only) load of the same file: the slow, exact path. */
export function fullRowOf(info: SessionInfo): SessionRow {
  const rest = infoFields(info);
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
  lister: SessionLister = directLister,
): Promise<SessionRow[]> {
  const infos = await infosOf(root, scope, progress, lister);
  const rows: SessionRow[] = [];
  for (let i = 0; i < infos.length; i++) {
    rows.push(rowOf(infos[i] as ShapedSessionInfo));
    progress.update(i + 1, infos.length);
  }
  progress.done();
  return rows;
}
