/**
 * The files a `check` or `migrate` argument names: a directory (every session file in it and
 * in its project directories), or one session (path, id, prefix or name), or — with no
 * argument — every session under the sessions root.
 */

import { resolve } from "node:path";
import type { PathProblem } from "@pi-sessions/core/internal";
import { notFoundError } from "../io/errors.js";
import type { CommandContext } from "../io/runtime.js";
import { isDirectory, sessionFilesOf } from "../io/session-files.js";
import { resolveSessionArg } from "./resolve-session.js";

/** The files to work on, whether they came from a directory (reports differ), and what not. */
export interface Targets {
  readonly files: readonly string[];
  readonly fromDirectory: boolean;
  /** Folders and `*.jsonl` entries of the directory that could not be read (not yet said). */
  readonly problems: readonly PathProblem[];
}

/**
 * Resolves a `<session|dir>` argument (or none: the sessions root) to files. A directory that
 * cannot be read is exit 2; one with nothing in it at all, exit 1.
 */
export function resolveTargets(ctx: CommandContext, arg: string | undefined): Targets {
  const dir =
    arg === undefined
      ? ctx.sessionsRoot
      : isDirectory(resolve(ctx.io.cwd, arg))
        ? resolve(ctx.io.cwd, arg)
        : undefined;
  if (dir === undefined) {
    return { files: [resolveSessionArg(ctx, arg as string)], fromDirectory: false, problems: [] };
  }
  const { files, problems } = sessionFilesOf(dir);
  if (files.length === 0 && problems.length === 0) {
    const hint = arg === undefined ? " (use --dir to read another directory)" : "";
    throw notFoundError(`no session files (*.jsonl) in ${dir}${hint}`);
  }
  return { files, fromDirectory: true, problems };
}
