/**
 * The session files under a sessions root, and everything in the way of reading them. Listings
 * compatible with the reference skip what they cannot read (R1.6 does); a tool that answers for
 * a whole folder (a check, a total, an index) must instead say what it could not look at, or an
 * unreadable folder reads as an empty one. One walk: the `*.jsonl` entries of the root and of
 * each directory directly under it (symlinked directories followed), as the listings read them.
 * Only `readdir` and, for symlinks and unknown entry types, `stat`: no file is opened.
 */

import { type Dirent, readdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { type FileKind, fileTypeOf } from "./regular-file.js";
import { errorCode } from "./store-fs.js";

/** Something a scan could not read or will not open, with the reason in words. */
export interface PathProblem {
  /** The folder or file. */
  readonly path: string;
  /** The fs error code (`EACCES`, `ELOOP`, `ENOENT` for a dangling link), or `ENOTREG`. */
  readonly code: string;
  /** Why, in a few words: `permission denied`, `a FIFO (named pipe), not a regular file`. */
  readonly reason: string;
  /** What it is: a folder that could not be listed, or a `*.jsonl` entry that cannot be read. */
  readonly what: "folder" | "file";
}

/** What a scan found. */
export interface SessionFileScan {
  /** Regular files (or symlinks to them) named `*.jsonl`, in directory order. */
  readonly files: string[];
  /** Folders that could not be listed and `*.jsonl` entries that are not readable files. */
  readonly problems: PathProblem[];
  /** Set when the root itself exists but could not be listed (then nothing else is known). */
  readonly rootProblem?: PathProblem;
}

/** An fs error's reason without its code and syscall: `permission denied`. */
export function fsReason(error: unknown): string {
  const code = errorCode(error);
  if (code === "ELOOP") return "a symbolic link loop";
  const message = error instanceof Error ? error.message : String(error);
  // `EACCES: permission denied, scandir '/x'` (some calls name no path: `…, opendir`).
  const bare = message.replace(/^[A-Z0-9]+: /, "").replace(/, \w+(?: '.*')?$/s, "");
  return bare === "" ? (code ?? "unreadable") : bare;
}

/** A problem from an fs error; a symlink that leads nowhere is called what it is. */
function problemOf(
  path: string,
  error: unknown,
  what: PathProblem["what"],
  link = false,
): PathProblem {
  const code = errorCode(error) ?? "EIO";
  const reason = link && code === "ENOENT" ? "a dangling symbolic link" : fsReason(error);
  return { path, code, reason, what };
}

/** A `*.jsonl` entry that is there but is not a regular file. */
function notRegular(path: string, stats: FileKind): PathProblem {
  return {
    path,
    code: "ENOTREG",
    reason: `${fileTypeOf(stats)}, not a regular file`,
    what: "file",
  };
}

type Listed = { readonly entries: Dirent[] } | { readonly problem: PathProblem | undefined };

/** A directory's entries; a vanished one or a symlink to a file lists nothing, quietly. */
function list(dir: string): Listed {
  try {
    return { entries: readdirSync(dir, { withFileTypes: true }) };
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { problem: undefined };
    return { problem: problemOf(dir, error, "folder") };
  }
}

/** What one `*.jsonl` entry is: a file to read, a directory, or a problem. */
function classify(path: string, entry: Dirent): "file" | "directory" | PathProblem {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  const special = entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice();
  if (special || entry.isBlockDevice()) return notRegular(path, entry);
  // A symlink, or a file system that does not tell entry types: follow it.
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    return problemOf(path, error, "file", entry.isSymbolicLink());
  }
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  return notRegular(path, stats);
}

/** Adds the `*.jsonl` entries of one listed directory to `scan`; returns its subdirectories. */
function take(
  dir: string,
  entries: readonly Dirent[],
  scan: SessionFileScan,
  atRoot: boolean,
): string[] {
  const dirs: string[] = [];
  // `join(dir, name)` for every name, normalising `dir` once (10,000 files).
  const prefix = join(dir, "x").slice(0, -1);
  for (const entry of entries) {
    const path = prefix + entry.name;
    const jsonl = entry.name.endsWith(".jsonl");
    if (atRoot && !jsonl) {
      if (entry.isDirectory() || entry.isSymbolicLink()) dirs.push(path);
      continue;
    }
    if (!jsonl) continue;
    const kind = classify(path, entry);
    if (kind === "file") scan.files.push(path);
    else if (kind === "directory") {
      // In the root a `x.jsonl` directory is a project directory, as the listings take it.
      if (atRoot) dirs.push(path);
      else
        scan.problems.push({
          path,
          code: "EISDIR",
          reason: "a directory, not a regular file",
          what: "file",
        });
    } else scan.problems.push(kind);
  }
  return dirs;
}

/**
 * The session files of a root and every folder directly under it, with what could not be
 * read. A missing root scans as empty (a fresh machine); a root that cannot be listed sets
 * `rootProblem`.
 */
export function scanSessionFiles(root: string): SessionFileScan {
  const scan: { files: string[]; problems: PathProblem[]; rootProblem?: PathProblem } = {
    files: [],
    problems: [],
  };
  const top = list(root);
  if (!("entries" in top)) {
    if (top.problem !== undefined) {
      scan.problems.push(top.problem);
      scan.rootProblem = top.problem;
    }
    return scan;
  }
  for (const dir of take(root, top.entries, scan, true)) {
    const listed = list(dir);
    if ("entries" in listed) take(dir, listed.entries, scan, false);
    else if (listed.problem !== undefined) scan.problems.push(listed.problem);
  }
  return scan;
}

/**
 * The session files of one folder (not its subfolders), with what could not be read; a
 * folder that cannot be listed sets `rootProblem`, a missing one scans as empty.
 */
export function scanSessionDir(dir: string): SessionFileScan {
  const listed = list(dir);
  if ("entries" in listed) {
    const scan = { files: [] as string[], problems: [] as PathProblem[] };
    take(dir, listed.entries, scan, false);
    return scan;
  }
  const problem = listed.problem;
  return problem === undefined
    ? { files: [], problems: [] }
    : { files: [], problems: [problem], rootProblem: problem };
}
