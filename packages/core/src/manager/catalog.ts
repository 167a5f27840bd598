import { resolve } from "node:path";
import { resolveCwd } from "../env/paths.js";
import type { SessionInfo } from "../schema/types.js";
import { type DeleteResult, deleteSessionFile } from "../store/delete.js";
import { findSessionById } from "../store/discovery.js";
import {
  listAllSessions,
  listSessions,
  listSessionsInDir,
  type SessionListProgress,
} from "../store/listing.js";
import { defaultSessionDirPath, getSessionsRoot } from "../store/paths.js";
import { resolveSessionDir, samePath } from "../store/session-files.js";

/**
 * Whether `dir` is the cwd's default session directory. Discovery filters by header cwd in
 * every directory ([Fix] W17); a header without a cwd matches only in the default directory
 * (as W17 asks), while a custom directory keeps the reference's rule that it does not.
 */
export function isDefaultDir(dir: string, cwd: string): boolean {
  return samePath(dir, defaultSessionDirPath(resolveCwd(cwd)));
}

/*
 * The reference's static discovery API — finding, listing and deleting session files —
 * which `SessionManager` exposes as its statics, so `SessionManager.list(…)` works as in pi.
 * Every function only reads (W13) except `deleteSession`.
 */
/**
 * The path of the session with exactly this id in the cwd's directory (headers only), or
 * undefined. Sessions of other working directories are skipped ([Fix] W17).
 */
export function findById(cwd: string, id: string, sessionDir?: string): string | undefined {
  const dir = sessionDir ? resolveSessionDir(sessionDir) : defaultSessionDirPath(resolveCwd(cwd));
  return findSessionById(dir, id, resolveCwd(cwd), isDefaultDir(dir, cwd));
}

/**
 * The sessions of `cwd`, newest activity first (SPEC §10.5). Files are only read; unchanged
 * files are not parsed again (cached by size and mtime). [Fix] W16, W17.
 */
export function list(
  cwd: string,
  sessionDir?: string,
  onProgress?: SessionListProgress,
  signal?: AbortSignal,
): Promise<SessionInfo[]> {
  const dir = sessionDir ? resolveSessionDir(sessionDir) : defaultSessionDirPath(resolveCwd(cwd));
  const emptyCwdMatches = isDefaultDir(dir, cwd);
  return listSessions(dir, { filterCwd: resolveCwd(cwd), emptyCwdMatches, onProgress, signal });
}

/** Every session of every working directory, or of one `sessionDir` (SPEC §10.5). */
export function listAll(
  onProgress?: SessionListProgress,
  signal?: AbortSignal,
): Promise<SessionInfo[]>;
export function listAll(
  sessionDir?: string,
  onProgress?: SessionListProgress,
  signal?: AbortSignal,
): Promise<SessionInfo[]>;
export function listAll(
  first?: string | SessionListProgress,
  second?: SessionListProgress | AbortSignal,
  third?: AbortSignal,
): Promise<SessionInfo[]> {
  if (typeof first === "string") {
    return listSessionsInDir(resolveSessionDir(first), {
      onProgress: second as SessionListProgress | undefined,
      signal: third,
    });
  }
  return listAllSessions(getSessionsRoot(), {
    onProgress: first,
    signal: second as AbortSignal | undefined,
  });
}

/**
 * Deletes a session file: to the trash with the `trash` command when it is on the PATH,
 * else unlinked (SPEC §1.6). Returns how it went.
 */
export function deleteSession(path: string): DeleteResult {
  return deleteSessionFile(resolve(path));
}
