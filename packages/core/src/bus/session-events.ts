import type { Handler, WildcardHandler } from "mitt";
import type { SessionEntry } from "../schema/types.js";
import type { LoadDiagnostic } from "../state/diagnostics.js";

/**
 * Payload of `entryAppended`: one entry was folded (and written, once flushed, when
 * persisted). It is the new leaf; its `parentId` is the leaf it was appended to (for
 * `branchWithSummary`, the entry a `leafMoved` event just before moved the leaf to).
 */
export interface EntryAppendedEvent {
  /** The entry exactly as stored (the JSON value of its line). Treat as read-only. */
  readonly entry: SessionEntry;
  /** Always `entry.id`. */
  readonly leafId: string;
}

/** Payload of `leafMoved`: `branch`, `resetLeaf` or `branchWithSummary` moved the leaf. */
export interface LeafMovedEvent {
  /** null: before the first entry. */
  readonly from: string | null;
  /** null: the next append starts a new root. */
  readonly to: string | null;
}

/**
 * Why the manager now holds another session: `"new"` newSession, `"open"` setSessionFile,
 * `"branched"` createBranchedSession, `"reload"` another manager of this process had
 * appended to the file, so the next append reloaded it first and continues from there;
 * `"forked"` another process writes the file (its lock, or lines it added since we read it),
 * so with `whenRefused: "fork"` the append went into a new session forked from this one.
 */
export type SessionSwitchReason = "new" | "open" | "branched" | "reload" | "forked";

/** Payload of `sessionSwitched`: the whole session (state, file, leaf) was replaced. */
export interface SessionSwitchedEvent {
  /** Why the session was replaced. */
  readonly reason: SessionSwitchReason;
  /** The id of the session now held. */
  readonly sessionId: string;
  /** Its file; undefined in memory. */
  readonly file: string | undefined;
  /** The id of the session held before. */
  readonly previousSessionId: string;
  /** Its file; undefined in memory. */
  readonly previousFile: string | undefined;
  /** For `"forked"`: the refusal of the previous file (a `SessionLockedError` or conflict). */
  readonly refusal?: Error;
}

/** Payload of `diagnostics`: a session loaded by `setSessionFile` has load problems. */
export interface DiagnosticsEvent {
  readonly sessionId: string;
  readonly file: string | undefined;
  /** What `getLoadDiagnostics()` returns (never empty: no event when clean). */
  readonly diagnostics: readonly LoadDiagnostic[];
}

/** Payload of `handlerError`: a handler of `event` threw `error`; the others still ran. */
export interface HandlerErrorEvent {
  readonly event: Exclude<SessionEventName, "handlerError">;
  readonly error: unknown;
}

/** The events of a session manager's bus, by name. */
export type SessionEventMap = {
  entryAppended: EntryAppendedEvent;
  leafMoved: LeafMovedEvent;
  sessionSwitched: SessionSwitchedEvent;
  diagnostics: DiagnosticsEvent;
  handlerError: HandlerErrorEvent;
};

/** The name of a bus event. */
export type SessionEventName = keyof SessionEventMap;

/** Where handler errors go when no `handlerError` or `*` handler listens (`onHandlerError`). */
export type HandlerErrorReporter = (error: unknown, event: SessionEventName) => void;

/**
 * The typed event bus of a `SessionManager`: a mitt emitter stores and dispatches, so mitt's
 * rules hold: an event's own handlers in subscription order, then wildcard `*` handlers with
 * `(type, payload)`, each list copied as mitt reaches it (so a `*` handler an own handler
 * subscribes hears the same event; an own one, the next). Events fire after the change is
 * committed (state replaced, line written when persisting), in commit order, also when a
 * handler itself appends: that append's events wait until the current event has reached
 * every handler. A handler that throws is isolated: the others still run, the append still
 * succeeded, and the error is reported as a `handlerError` event. Subscribe-only. The
 * returned unsubscribe function removes its own subscription only, once.
 */
export interface SessionEventBus {
  /** Subscribes a handler; returns a function that unsubscribes it. */
  on<K extends SessionEventName>(type: K, handler: Handler<SessionEventMap[K]>): () => void;
  /** Subscribes a handler to every event; returns a function that unsubscribes it. */
  on(type: "*", handler: WildcardHandler<SessionEventMap>): () => void;
  /**
   * Unsubscribes a handler (all handlers of the event when none is given). A handler
   * subscribed twice runs twice and is removed one subscription at a time, oldest first.
   */
  off<K extends SessionEventName>(type: K, handler?: Handler<SessionEventMap[K]>): void;
  /** Unsubscribes a wildcard handler. */
  off(type: "*", handler?: WildcardHandler<SessionEventMap>): void;
  /** How many handlers listen to `type` (wildcard handlers not included). */
  listenerCount(type: SessionEventName | "*"): number;
}
