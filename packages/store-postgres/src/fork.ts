/**
 * A fork of a stored session, as core's `SessionManager.forkFrom` makes one of a file: the
 * source's entries (its whole tree, as they replay), after a new header for the target cwd
 * whose `parentSession` names the source, serialised as the file store writes a session.
 */
import type {
  SessionEntry,
  SessionEnv,
  SessionManager,
  SessionManagerOptions,
  StoredSession,
} from "@pi-sessions/core";
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

/** What a fork needs of the store it forks in. */
export interface ForkingStore {
  readonly env: SessionEnv;
  load(id: string, options: { write: false }): Promise<string>;
  read(location: string): StoredSession;
  importBytes(bytes: Buffer, label?: string): Promise<string>;
  openSession(
    id: string,
    options: SessionManagerOptions & { cwd?: string },
  ): Promise<SessionManager>;
}

/**
 * Forks the stored session `sourceId` into `targetCwd` (see `PostgresSessionStore.forkFrom`):
 * the source only read, the copy written whole, then opened (leased) and returned.
 */
export async function forkStored(
  store: ForkingStore,
  sourceId: string,
  targetCwd: string,
  options: SessionManagerOptions,
): Promise<SessionManager> {
  const location = await store.load(sourceId, { write: false });
  const { entries } = store.read(location);
  const bytes = forkedSession(location, entries, targetCwd, options.env ?? store.env, options.id);
  const id = await store.importBytes(bytes, `fork of ${location}`);
  return store.openSession(id, { ...options, cwd: targetCwd });
}
