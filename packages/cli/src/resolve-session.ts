/**
 * Turning a `<session>` argument into a file: a path, a session id (or a unique prefix of
 * one), or a session name. Only reads.
 */

import { statSync } from "node:fs";
import { resolve } from "node:path";
import { buildSessionInfo, readHeader } from "@pi-sessions/core";
import { notFoundError, usageError } from "./errors.js";
import type { CommandContext } from "./runtime.js";
import { sessionFilesUnder } from "./session-files.js";

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

/**
 * The file a `<session>` argument names. In order: an existing file path; a session whose
 * header id equals the argument; a session whose name equals it; the one session whose id
 * starts with it. Throws exit 2 for a directory, a missing path or an ambiguous match, and
 * exit 1 when nothing matches.
 */
export function resolveSessionArg(ctx: CommandContext, arg: string): string {
  if (arg === "") throw usageError("empty session argument");
  const asPath = resolve(ctx.io.cwd, arg);
  try {
    const stats = statSync(asPath);
    if (stats.isDirectory()) throw usageError(`${arg} is a directory, not a session file`);
    return asPath;
  } catch (error) {
    if (!(error instanceof Error) || (error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw error instanceof Error && error.name === "CliError"
        ? error
        : usageError(`cannot read ${arg}: ${(error as Error).message}`);
    }
  }
  if (looksLikePath(arg)) throw usageError(`no such file: ${arg}`);

  const files = sessionFilesUnder(ctx.sessionsRoot);
  if (files.length === 0) {
    throw notFoundError(`no sessions in ${ctx.sessionsRoot} (use --dir to read another directory)`);
  }
  const exact: string[] = [];
  const prefixed: string[] = [];
  for (const file of files) {
    const id = readHeader(file)?.id;
    if (typeof id !== "string") continue;
    if (id === arg) exact.push(file);
    else if (id.startsWith(arg)) prefixed.push(file);
  }
  if (exact.length === 1 && exact[0] !== undefined) return exact[0];
  if (exact.length > 1) ambiguous(arg, "id", exact);

  const named = files.filter((file) => buildSessionInfo(file)?.name === arg);
  if (named.length === 1 && named[0] !== undefined) return named[0];
  if (named.length > 1) ambiguous(arg, "name", named);

  if (prefixed.length === 1 && prefixed[0] !== undefined) return prefixed[0];
  if (prefixed.length > 1) ambiguous(arg, "id prefix", prefixed);
  throw notFoundError(
    `no session matches "${arg}" (by path, id, id prefix or name) in ${ctx.sessionsRoot}`,
  );
}
