import type * as sessionEvents from "../bus/session-events.js";
import type { SessionEnv } from "../env/env.js";
import type * as schema from "../schema/types.js";
import type { Projection } from "../state/projection.js";
import type { Durability } from "../store/session-writer.js";
import type { ColumnsFor } from "../store/vouched-columns.js";

/** The reference's `NewSessionOptions` plus our injection points. */
export interface SessionManagerOptions extends schema.NewSessionOptions {
  /** Clock and random source (default: the system's); tests pass a deterministic env. */
  env?: SessionEnv;
  /** Extra projections folded next to the built-ins (plugins). */
  projections?: readonly Projection<unknown>[];
  /** W9: `"never"` (default, like pi) leaves appends to the OS, `"always"` fsyncs each. */
  durability?: Durability;
  /** Refuses appended entries that do not match their io-ts codec (off, like pi: a decode each). */
  strict?: boolean;
  /** Gets every error an `events` handler throws (default: unheard ones go to console.error). */
  onHandlerError?: sessionEvents.HandlerErrorReporter;
  /**
   * What an append does when another process writes the session file (holds its lock, or wrote
   * since we read it): `"throw"` (default) refuses it (`SessionLockedError`, `SessionConflictError`,
   * nothing changed); `"fork"` writes a new session forked from this one at once (every entry,
   * `parentSession` naming this file, SPEC L3), appends there and emits `sessionSwitched` with
   * reason `"forked"`: the other writer's file is never forked, and the entry is not lost.
   */
  whenRefused?: "throw" | "fork";
  /** Vouches for a big session file's columns, so opening it need not read it (pi's launcher: the index). */
  columnsFor?: ColumnsFor;
}
