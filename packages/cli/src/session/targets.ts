/**
 * The files a `check` or `migrate` argument names: a directory (every session file in it and
 * in its project directories), or one session (path, id, prefix or name), or — with no
 * argument — every session under the sessions root.
 */

import { resolve } from "node:path";
import { notFoundError } from "../io/errors.js";
import type { CommandContext } from "../io/runtime.js";
import { isDirectory, sessionFilesUnder } from "../io/session-files.js";
import { resolveSessionArg } from "./resolve-session.js";

/** The files to work on, and whether they came from a directory (reports differ). */
export interface Targets {
  readonly files: readonly string[];
  readonly fromDirectory: boolean;
}

/** Resolves a `<session|dir>` argument (or none: the sessions root) to files. */
export function resolveTargets(ctx: CommandContext, arg: string | undefined): Targets {
  const dir =
    arg === undefined
      ? ctx.sessionsRoot
      : isDirectory(resolve(ctx.io.cwd, arg))
        ? resolve(ctx.io.cwd, arg)
        : undefined;
  if (dir === undefined) {
    return { files: [resolveSessionArg(ctx, arg as string)], fromDirectory: false };
  }
  const files = sessionFilesUnder(dir);
  if (files.length === 0) {
    const hint = arg === undefined ? " (use --dir to read another directory)" : "";
    throw notFoundError(`no session files (*.jsonl) in ${dir}${hint}`);
  }
  return { files, fromDirectory: true };
}
