/**
 * Loading one session for a read-only command (`tree`, `context`, `check`, `ls` counts). Uses
 * core's streaming reader, which never writes (W13): unlike `SessionManager.open`, it neither
 * rewrites a legacy file nor initialises an empty one, so inspecting a session changes nothing.
 */

import {
  createDeterministicEnv,
  headerVersion,
  InvalidSessionError,
  type LoadDiagnostic,
  readHeader,
  readSessionFile,
  replayState,
  type SessionEntry,
  type SessionEnv,
  type SessionHeader,
  type SessionState,
  structuralDiagnostics,
} from "@pi-sessions/core";
import { CliError, ExitCode, oneLine, usageError } from "./errors.js";

/** A session read from disk, with everything the load found wrong. */
export interface LoadedSession {
  readonly path: string;
  readonly header: SessionHeader;
  /** The replayed state (migrated in memory when the file is older than v3). */
  readonly state: SessionState;
  /** Entries with a string id, in file order. */
  readonly entries: readonly SessionEntry[];
  /**
   * Every problem with a file line where one is known: damaged lines, entries without ids,
   * extra headers, migration notes, duplicate ids, dangling parents and cycles.
   */
  readonly diagnostics: readonly LoadDiagnostic[];
  /** The header's version as the format reads it (absent means 1). */
  readonly version: number;
  /** Whether the file is older than v3 (its entries were migrated in memory only). */
  readonly legacy: boolean;
  /** Whether the file does not end with a newline (a torn or unterminated last line). */
  readonly needsNewline: boolean;
  /** Bytes read. */
  readonly size: number;
  /** The header's line, when the load tracked record lines (legacy files: garbage may precede it). */
  readonly headerLine?: number;
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
  let read: ReturnType<typeof readSessionFile>;
  try {
    read = readSessionFile(path, env, path);
  } catch (error) {
    if (error instanceof InvalidSessionError) {
      throw new NotASessionError(`${path} is not a pi session: ${error.reason}`);
    }
    throw usageError(`cannot read ${path}: ${oneLine(error)}`);
  }
  if (read.kind === "missing") throw usageError(`no such file: ${path}`);
  if (read.kind === "empty") throw new NotASessionError(`${path} is empty (0 bytes)`);
  const { loaded } = read;
  const header = loaded.header;
  if (header === null) throw new NotASessionError(`${path} has no session header`);
  const state = replayState(header, loaded.entries);
  const lines = loaded.entryLines;
  // The replayed header of a legacy file is already migrated; the file's own says what it is.
  const onDisk = loaded.migrated ? readHeader(path, Number.POSITIVE_INFINITY) : header;
  const version = headerVersion((onDisk ?? header) as unknown as Record<string, unknown>);
  return {
    path,
    header,
    state,
    entries: loaded.entries,
    diagnostics: [
      ...loaded.diagnostics,
      ...structuralDiagnostics(state.log, (pos) => lines?.lineOf(pos)),
    ],
    version,
    legacy: loaded.migrated,
    needsNewline: loaded.needsNewline,
    size: read.size,
    ...(loaded.lines?.[0] !== undefined ? { headerLine: loaded.lines[0] } : {}),
  };
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
