/**
 * Turning a `<session>` argument into a file: a path, a session id (or a unique prefix of
 * one), or a session name (or a unique prefix of one). Only reads.
 */

import { lstatSync, type Stats, statSync } from "node:fs";
import { resolve } from "node:path";
import { buildSessionInfo, fileTypeOf, fsReason } from "@pi-sessions/core/internal";
import { CliError, notFoundError, usageError } from "../io/errors.js";
import { reportUnreadable, sessionFilesOf } from "../io/find-session-files.js";
import type { CommandContext } from "../io/runtime.js";
import { headerIdsOf } from "./header-ids.js";
import { idHasPrefix } from "./short-ids.js";

/** How many candidates an "ambiguous" message names before it says "…". */
const SHOWN_CANDIDATES = 5;

/** Whether an argument is meant as a path rather than an id or a name. */
function looksLikePath(arg: string): boolean {
  return arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl") || arg.startsWith(".");
}

function ambiguous(arg: string, what: string, paths: readonly string[]): never {
  const shown = paths.slice(0, SHOWN_CANDIDATES).join(", ");
  const more = paths.length > SHOWN_CANDIDATES ? `, … (${paths.length} in all)` : "";
  throw usageError(`"${arg}" matches more than one session by ${what}: ${shown}${more}`);
}

/** The one match, or an ambiguity error, or undefined for none. */
function single(arg: string, what: string, paths: readonly string[]): string | undefined {
  if (paths.length > 1) ambiguous(arg, what, paths);
  return paths[0];
}

/**
 * An existing file at `arg` (resolved against the cwd); undefined when nothing is there. A
 * FIFO, socket, device, dangling symlink or symlink loop is unreadable input (exit 2) here,
 * before anything opens it.
 */
function existingFile(ctx: CommandContext, arg: string): string | undefined {
  const path = resolve(ctx.io.cwd, arg);
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw usageError(`cannot read ${arg}: ${fsReason(error)}`);
    }
    if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
      throw usageError(`cannot read ${arg}: a dangling symbolic link`);
    }
    return undefined;
  }
  if (stats.isDirectory()) throw new CliError(`${arg} is a directory, not a session file`);
  if (!stats.isFile()) {
    throw usageError(`cannot read ${arg}: ${fileTypeOf(stats)}, not a regular file`);
  }
  return path;
}

/**
 * The file a `<session>` argument names. In order: an existing file path; a session whose
 * header id equals the argument; a session whose name equals it; the one session whose id
 * starts with it; the one session whose name starts with it, ignoring case. Throws exit 2
 * for a directory, a missing path or an ambiguous match, and exit 1 when nothing matches.
 */
export function resolveSessionArg(ctx: CommandContext, arg: string): string {
  if (arg === "") throw usageError("empty session argument");
  const file = existingFile(ctx, arg);
  if (file !== undefined) return file;
  if (looksLikePath(arg)) throw usageError(`no such file: ${arg}`);

  const scan = sessionFilesOf(ctx.sessionsRoot);
  const files = scan.files;
  // Folders that could not be listed may hold the session; a FIFO or device cannot.
  const folders = scan.problems.filter((p) => p.what === "folder");
  if (files.length === 0) {
    reportUnreadable(ctx, folders);
    throw notFoundError(`no sessions in ${ctx.sessionsRoot} (use --dir to read another directory)`);
  }
  const exact: string[] = [];
  const prefixed: string[] = [];
  for (const { path, id } of headerIdsOf(files)) {
    if (id === arg) exact.push(path);
    else if (idHasPrefix(id, arg)) prefixed.push(path);
  }
  const byId = single(arg, "id", exact);
  if (byId !== undefined) return byId;

  // Names need a full read of each file, so they come after the header-only id checks.
  const names = files.map((path) => ({ path, name: buildSessionInfo(path)?.name }));
  const byName = single(
    arg,
    "name",
    names.filter((n) => n.name === arg).map((n) => n.path),
  );
  if (byName !== undefined) return byName;
  const byIdPrefix = single(arg, "id prefix", prefixed);
  if (byIdPrefix !== undefined) return byIdPrefix;
  const lower = arg.toLowerCase();
  const byNamePrefix = single(
    arg,
    "name prefix",
    names.filter((n) => n.name?.toLowerCase().startsWith(lower) === true).map((n) => n.path),
  );
  if (byNamePrefix !== undefined) return byNamePrefix;
  // What could not be looked at may hold the session: say so rather than only "no match".
  reportUnreadable(ctx, folders);
  throw notFoundError(
    `no session matches "${arg}" (by path, id, id prefix, name or name prefix) in ${ctx.sessionsRoot}`,
  );
}
