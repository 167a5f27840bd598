/**
 * Loading one session for a read-only command (`tree`, `context`, `check`, `ls` counts). Uses
 * core's streaming reader, which never writes (W13): unlike `SessionManager.open`, it neither
 * rewrites a legacy file nor initialises an empty one, so inspecting a session changes nothing.
 */

import { readSync } from "node:fs";
import {
  createDeterministicEnv,
  InvalidSessionError,
  NotRegularFileError,
  type ReadSessionOptions,
  readSession,
  replayState,
  type SessionEntry,
  type SessionEnv,
  type SessionOnDisk,
  type SessionState,
} from "@pi-sessions/core";
import { fsReason, withFile } from "@pi-sessions/core/internal";
import { CliError, ExitCode, usageError } from "../io/errors.js";

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

/** The UTF-8 byte order mark: pi rejects a file that starts with one (its first line is not JSON). */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Whether the file at `path` starts with a UTF-8 BOM (false when it cannot be read). */
function startsWithBom(path: string): boolean {
  try {
    return withFile(path, (fd) => {
      const head = Buffer.alloc(3);
      return readSync(fd, head, 0, 3, 0) === 3 && head.equals(BOM);
    });
  } catch {
    return false;
  }
}

/** Why a non-empty file is not a session, saying so when a BOM is the cause. */
function notASession(path: string, error: InvalidSessionError): NotASessionError {
  if (startsWithBom(path)) {
    return new NotASessionError(
      `${path} is not a pi session: it starts with a UTF-8 byte order mark (BOM), which pi does not accept either (${error.reason}); remove the first 3 bytes`,
    );
  }
  return new NotASessionError(`${path} is not a pi session: ${error.reason}`);
}

/**
 * Reads and replays a session file without writing anything. Throws a {@link CliError} with
 * exit code 2 when the file is missing, unreadable, not a regular file, empty or not a
 * session. `options.maxLineBytes` bounds what one line may cost (see `lineLimitOf` in `io/line-limit.ts`): a longer
 * line is a `line-too-long` diagnostic, never read.
 */
export function loadSession(
  path: string,
  env: SessionEnv = legacyIdEnv(),
  options: ReadSessionOptions = {},
): LoadedSession {
  let read: SessionOnDisk;
  try {
    read = readSession(path, env, options);
  } catch (error) {
    if (error instanceof InvalidSessionError) {
      if (error.kind === "empty") throw new NotASessionError(`${path} is empty (0 bytes)`);
      throw notASession(path, error);
    }
    if (error instanceof NotRegularFileError) {
      throw usageError(`cannot read ${path}: ${error.reason}`);
    }
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw usageError(`no such file: ${path}`);
    throw usageError(`cannot read ${path}: ${fsReason(error)}`);
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

/**
 * One stderr line per line a bounded read left unread (`line-too-long`): which line, how big,
 * and that its entry is missing from what the command shows, so a bounded answer never
 * passes for the whole file.
 */
export function longLineNotes(
  path: string,
  diagnostics: readonly {
    readonly kind: string;
    readonly line?: number;
    readonly message: string;
  }[],
): string[] {
  return diagnostics
    .filter((d) => d.kind === "line-too-long")
    .map(
      (d) =>
        `pi-sessions: ${path}: line ${d.line ?? "?"}: ${d.message}; its entry is left out here (PI_SESSIONS_MAX_LINE_BYTES raises the bound)`,
    );
}
