/**
 * Finding session files under a sessions root (SPEC §1 layout: `<root>/--<cwd>--/<file>.jsonl`)
 * with core's one walk (`scanSessionFiles`): the `*.jsonl` files in the root and in each
 * directory directly under it (symlinked directories followed), never deeper (the store never
 * writes there, and backups of `check --repair` end in `.bak`). Only reads; a missing root
 * yields no files. Unreadable is not empty: a root that cannot be listed is unreadable input
 * (exit 2), and every folder or `*.jsonl` entry that cannot be read — a folder without
 * permission, a FIFO, socket or device, a `.jsonl` directory, a dangling or looping symlink —
 * is said in one line on stderr and raises the exit code to 2, while the rest is still read.
 */

import { statSync } from "node:fs";
import {
  type PathProblem,
  type SessionFileScan,
  scanSessionFiles,
} from "@pi-sessions/core/internal";
import { ExitCode, usageError } from "./errors.js";

/** Whether `path` exists and is a directory. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What reporting needs of a command's context (stderr and the exit code). */
export interface Reporter {
  /** Writes a line to stderr. */
  err(line: string): void;
  /** Raises the exit code. */
  exit(code: typeof ExitCode.usage): void;
}

/** The one line that says a path could not be read. */
export function unreadableLine(problem: PathProblem): string {
  const left = problem.what === "folder" ? " (a folder: its sessions are left out)" : "";
  return `pi-sessions: cannot read ${problem.path}: ${problem.reason}${left}`;
}

/** Says each problem in one line on stderr and raises the exit code to 2. */
export function reportUnreadable(ctx: Reporter, problems: readonly PathProblem[]): void {
  for (const problem of problems) ctx.err(unreadableLine(problem));
  if (problems.length > 0) ctx.exit(ExitCode.usage);
}

/**
 * The session files of `root`, sorted by path unless `sorted` is false (a count needs no order,
 * and sorting 10,000 paths costs more than the count); throws exit 2 when the root itself
 * cannot be listed. The problems met are returned, not yet reported (commands say them where
 * they fit).
 */
export function sessionFilesOf(root: string, sorted = true): SessionFileScan {
  const scan = scanSessionFiles(root);
  if (scan.rootProblem !== undefined) {
    throw usageError(`cannot read ${root}: ${scan.rootProblem.reason}`);
  }
  return { files: sorted ? scan.files.sort() : scan.files, problems: scan.problems };
}
