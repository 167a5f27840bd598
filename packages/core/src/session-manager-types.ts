/**
 * The option and view types of {@link SessionManager}, apart from the class so that its file
 * holds behaviour only.
 */
import type { HandlerErrorReporter } from "./bus/session-events.js";
import type { SessionEnv } from "./env/env.js";
import type { NewSessionOptions } from "./schema/types.js";
import type { Projection } from "./state/projection.js";
import type { Durability } from "./store/session-writer.js";

/** Options accepted where the reference takes `NewSessionOptions`, plus our injection points. */
export interface SessionManagerOptions extends NewSessionOptions {
  /** Clock and random source (default: the system's). Tests pass a deterministic env. */
  env?: SessionEnv;
  /** Extra projections folded next to the built-ins (plugins). */
  projections?: readonly Projection<unknown>[];
  /**
   * When appends reach the disk (W9): `"never"` (default, like pi) leaves it to the OS;
   * `"always"` fsyncs every append. First writes and whole-file writes always fsync.
   */
  durability?: Durability;
  /**
   * Checks every appended entry against its io-ts codec and refuses one that does not match
   * (`EntryRejectedError` with the fields' paths). Off by default, like pi: it costs a
   * decode per append.
   */
  strict?: boolean;
  /**
   * Receives every error thrown by an event handler of `events` (besides the `handlerError`
   * event). Default: errors nobody listens for are printed with `console.error`.
   */
  onHandlerError?: HandlerErrorReporter;
}
