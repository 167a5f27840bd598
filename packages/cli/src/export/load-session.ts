/**
 * Reading one session file for `export` and `usage`, strictly read-only: a legacy (v1/v2) file
 * is migrated in memory and never rewritten (opening it with `SessionManager.open` would
 * rewrite it), and a torn last line gets no newline appended.
 */
import {
  branchOf,
  entriesOf,
  InvalidSessionError,
  type LoadDiagnostic,
  labelOfId,
  nameOf,
  readSessionFile,
  replayState,
  type SessionEntry,
  type SessionHeader,
  type SessionState,
  systemEnv,
} from "@pi-sessions/core";
import { oneLine, usageError } from "../errors.js";

/** A session read from disk, with the queries `export` and `usage` need. */
export interface LoadedSession {
  readonly path: string;
  readonly header: SessionHeader | null;
  readonly state: SessionState;
  /** Every entry in file order. */
  readonly entries: readonly SessionEntry[];
  /** The leaf the file ends at (null for a session without entries). */
  readonly leafId: string | null;
  readonly name: string | undefined;
  /** Damaged lines and structural problems found while loading (see `check`). */
  readonly diagnostics: readonly LoadDiagnostic[];
  /** Root → `leafId`; `[]` when the id is unknown. */
  branch(leafId: string | null): SessionEntry[];
  /** The current label of an entry. */
  label(id: string): string | undefined;
}

/**
 * Loads `path`. Throws a usage error (exit 2) with a one-line reason when the file is
 * missing, empty, unreadable or not a pi session; damaged lines inside a session are not an error
 * (they are reported in `diagnostics` and the intact entries are used).
 */
export function loadSession(path: string): LoadedSession {
  let read: ReturnType<typeof readSessionFile>;
  try {
    read = readSessionFile(path, systemEnv);
  } catch (error) {
    if (error instanceof InvalidSessionError) {
      throw usageError(`${path} is not a pi session (${error.reason})`);
    }
    throw usageError(`cannot read ${path}: ${oneLine(error)}`);
  }
  if (read.kind === "missing") throw usageError(`no such file: ${path}`);
  if (read.kind === "empty") throw usageError(`${path} is empty, not a pi session`);
  const { header, entries, diagnostics } = read.loaded;
  const state = replayState(header, entries);
  return {
    path,
    header,
    state,
    entries: entriesOf(state),
    leafId: state.leafId,
    name: nameOf(state),
    diagnostics,
    branch: (leafId) => (leafId === null ? [] : branchOf(state, leafId)),
    label: (id) => labelOfId(state, id),
  };
}
