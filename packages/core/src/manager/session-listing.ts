import { resolveCwd } from "../env/paths.js";
import type { SessionInfo } from "../schema/types.js";
import { findSessionById } from "../store/discovery.js";
import * as listing from "../store/listing.js";
import * as paths from "../store/paths.js";
import { resolveSessionDir, samePath } from "../store/store-helpers.js";

type Progress = listing.SessionListProgress;

/**
 * `sessionDir` as the reference resolves it, else the cwd's default one (creating nothing, W13),
 * and whether it is the default one, the only one where a header without a cwd matches (W17).
 */
export function dirFor(
  sessionDir: string | undefined,
  cwd: string,
): [dir: string, isDefault: boolean] {
  const home = paths.defaultSessionDirPath(resolveCwd(cwd));
  const dir = sessionDir ? resolveSessionDir(sessionDir) : home;
  return [dir, samePath(dir, home)];
}

/** `SessionManager.findById`: the path of the session with this id among `cwd`'s (headers only). */
export function findSessionPath(cwd: string, id: string, sessionDir?: string): string | undefined {
  const [dir, isDefault] = dirFor(sessionDir, cwd);
  return findSessionById(dir, id, cwd, isDefault);
}

/** `SessionManager.list`: the sessions of `cwd`, newest activity first (SPEC §10.5). */
export function listCwdSessions(
  cwd: string,
  sessionDir?: string,
  onProgress?: Progress,
  signal?: AbortSignal,
): Promise<SessionInfo[]> {
  const [dir, emptyCwdMatches] = dirFor(sessionDir, cwd);
  return listing.listSessions(dir, { filterCwd: cwd, emptyCwdMatches, onProgress, signal });
}

/** `SessionManager.listAll`'s two overloads: `(onProgress?, signal?)` and `(sessionDir, …)`. */
export function listEverySession(
  first?: string | Progress,
  second?: Progress | AbortSignal,
  third?: AbortSignal,
): Promise<SessionInfo[]> {
  if (typeof first !== "string") {
    const signal = second as AbortSignal | undefined;
    return listing.listAllSessions(paths.getSessionsRoot(), { onProgress: first, signal });
  }
  const onProgress = second as Progress | undefined;
  return listing.listSessionsInDir(resolveSessionDir(first), { onProgress, signal: third });
}
