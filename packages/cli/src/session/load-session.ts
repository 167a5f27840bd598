/**
 * Loading one session for a read-only command (`tree`, `context`, `check`, `ls` counts). Uses
 * core's streaming reader, which never writes (W13): unlike `SessionManager.open`, it neither
 * rewrites a legacy file nor initialises an empty one, so inspecting a session changes nothing.
 */

import {
  createDeterministicEnv,
  InvalidSessionError,
  readSession,
  replayState,
  type SessionEntry,
  type SessionEnv,
  type SessionOnDisk,
  type SessionState,
} from "@pi-sessions/core";
import { CliError, ExitCode, oneLine, usageError } from "../io/errors.js";

/** A session read from disk (core's read-only {@link readSession}) with its replayed state. */
export interface LoadedSession extends Omit<SessionOnDisk, "needsMigration"> {
  /** The replayed state (migrated in memory when the file is older than v3). */
  readonly state: SessionState;
  /** Whether the file is older than v3 (its entries were migrated in memory only). */
  readonly legacy: boolean;
}

/**
 * The env for in-memory migration of legacy files: seeded, so the ids a v1 file's entries get
 * are the same on every run and `tree` can be followed by `context --leaf <id>`. Only ever
 * used for reading; `migrate` writes ids from the real random source.
 */
export function legacyIdEnv(): SessionEnv {
  return createDeterministicEnv({ seed: 1 });
}

/** Why a file could not be loaded at all: empty, or not a session. */
export class NotASessionError extends CliError {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = "NotASessionError";
  }
}

/**
 * Reads and replays a session file without writing anything. Throws a {@link CliError} with
 * exit code 2 when the file is missing, unreadable, empty or not a session.
 */
export function loadSession(path: string, env: SessionEnv = legacyIdEnv()): LoadedSession {
  let read: SessionOnDisk;
  try {
    read = readSession(path, env);
  } catch (error) {
    if (error instanceof InvalidSessionError) {
      if (error.kind === "empty") throw new NotASessionError(`${path} is empty (0 bytes)`);
      throw new NotASessionError(`${path} is not a pi session: ${error.reason}`);
    }
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw usageError(`no such file: ${path}`);
    throw usageError(`cannot read ${path}: ${oneLine(error)}`);
  }
  const { needsMigration, ...rest } = read;
  return { ...rest, state: replayState(read.header, read.entries), legacy: needsMigration };
}

/** Number of leaves (entries nobody names as parent): how many branch tips the tree has. */
export function countLeaves(entries: readonly SessionEntry[]): number {
  const parents = new Set<string>();
  for (const e of entries) if (typeof e.parentId === "string") parents.add(e.parentId);
  const ids = new Set<string>();
  let leaves = 0;
  for (const e of entries) {
    if (ids.has(e.id)) continue; // a duplicate id is one node (W15)
    ids.add(e.id);
    if (!parents.has(e.id)) leaves++;
  }
  return leaves;
}
