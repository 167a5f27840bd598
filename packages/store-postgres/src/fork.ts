/**
 * A fork of a stored session, as core's `SessionManager.forkFrom` makes one of a file: the
 * source's entries (its whole tree, as they replay), after a new header for the target cwd
 * whose `parentSession` names the source, serialised as the file store writes a session.
 */
import type { SessionEntry, SessionEnv } from "@pi-sessions/core";
import {
  assertValidSessionId,
  createHeader,
  resolveCwd,
  sessionLines,
} from "@pi-sessions/core/internal";

/** The bytes of the fork of `entries` (the session at `source`) into `targetCwd`. */
export function forkedSession(
  source: string,
  entries: readonly SessionEntry[],
  targetCwd: string,
  env: SessionEnv,
  id?: string,
): Buffer {
  if (id !== undefined) assertValidSessionId(id);
  const header = createHeader({
    id: id ?? env.uuidv7(),
    timestamp: env.now().toISOString(),
    cwd: resolveCwd(targetCwd),
    parentSession: source,
  });
  const lines = sessionLines(header, entries);
  return Buffer.from(lines.join(""), "utf8");
}
