import { dirname } from "node:path";
import { jsonClone } from "../format/json-clone.js";
import type { NewSessionOptions } from "../schema/types.js";
import { findMostRecentSession, readHeader } from "../store/discovery.js";
import { fileStore } from "../store/file-store.js";
import { resolveSessionDir } from "../store/store-helpers.js";
import type { ManagedSession } from "./managed-session.js";
import { dirFor } from "./session-listing.js";

/** The cwd a session file names in its header, else the process's (`SessionManager.open`). */
export function headerCwdOf(file: string): string {
  // No scan limit: the reference falls back to a full scan for a header over 1 MiB.
  const headerCwd = readHeader(file, Number.POSITIVE_INFINITY)?.cwd;
  return typeof headerCwd === "string" ? headerCwd : process.cwd();
}

/** Opens `file` (SPEC §6.5) in `sessionDir`, by default the file's own folder. */
export function openFileIn(session: ManagedSession, file: string, sessionDir?: string): void {
  session.useDir(sessionDir ? resolveSessionDir(sessionDir) : dirname(file));
  session.openLocation(file);
}

/** Opens the most recent session of the cwd, or starts a new one. [Fix] W17: other cwds skipped. */
export function openRecentIn(
  session: ManagedSession,
  sessionDir: string | undefined,
  options?: NewSessionOptions,
): void {
  const [dir, isDefault] = dirFor(sessionDir, session.cwd);
  session.useDir(dir);
  const recent = findMostRecentSession(dir, session.cwd, isDefault);
  if (recent) session.openLocation(recent);
  else session.startNew(options);
}

/**
 * Copies the session at `source` whole into a new file in `sessionDir`, written at once. The
 * source is only read (W13) and migrated in memory (W12).
 */
export function forkInto(
  session: ManagedSession,
  source: string,
  sessionDir: string | undefined,
  id: string | undefined,
): void {
  const [dir] = dirFor(sessionDir, session.cwd);
  const { entries } = fileStore(dir, { env: session.env }).read(source);
  session.useDir(dir);
  session.start(jsonClone(session.newHeader({ id }, source)), entries, true);
}
