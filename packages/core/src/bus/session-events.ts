import type { Handler, WildcardHandler } from "mitt";
import type { SessionEntry } from "../schema/types.js";
import type { LoadDiagnostic } from "../state/diagnostics.js";

/**
 * Payload of `entryAppended`: one entry was folded into the state (and written, when the
 * session is persisted and flushed). The entry is the new leaf; its `parentId` is the leaf
 * it was appended to (for `branchWithSummary`, the entry the leaf moved to first, announced
 * by a `leafMoved` event just before this one).
 */
export interface EntryAppendedEvent {
  /** The entry exactly as stored (the JSON value of its line). Treat as read-only. */
  readonly entry: SessionEntry;
  /** The leaf after the append: always `entry.id`. */
  readonly leafId: string;
}

/** Payload of `leafMoved`: `branch`, `resetLeaf` or `branchWithSummary` moved the leaf. */
export interface LeafMovedEvent {
  /** The leaf before the move (null: before the first entry). */
  readonly from: string | null;
  /** The leaf after the move (null: the next append starts a new root). */
  readonly to: string | null;
}

/** Why the manager now holds another session (or a newer state of the same file). */
export type SessionSwitchReason = "new" | "open" | "branched" | "reload";

/**
 * Payload of `sessionSwitched`: `newSession`, `setSessionFile` or `createBranchedSession`
 * replaced the whole session (state, file, leaf), or an append reloaded the file first.
 */
export interface SessionSwitchedEvent {
  /**
   * `"new"`: newSession; `"open"`: setSessionFile; `"branched"`: createBranchedSession;
   * `"reload"`: another manager of this process had appended to the file since this one
   * read it, so the next append reloaded the file first and continues from those entries.
   */
  readonly reason: SessionSwitchReason;
  /** The id of the session now held. */
  readonly sessionId: string;
  /** Its file (undefined in memory). */
  readonly file: string | undefined;
  /** The id of the session held before. */
  readonly previousSessionId: string;
  /** Its file (undefined in memory). */
  readonly previousFile: string | undefined;
}

/** Payload of `diagnostics`: a session loaded by `setSessionFile` has load problems. */
export interface DiagnosticsEvent {
  /** The id of the session loaded. */
  readonly sessionId: string;
  /** Its file. */
  readonly file: string | undefined;
  /** What `getLoadDiagnostics()` returns for it (never empty: no event when clean). */
  readonly diagnostics: readonly LoadDiagnostic[];
}

/** Payload of `handlerError`: a handler of another event threw; the others still ran. */
export interface HandlerErrorEvent {
  /** The event whose handler threw. */
  readonly event: Exclude<SessionEventName, "handlerError">;
  /** What it threw. */
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

/**
 * Where handler errors go when no `handlerError` listener (or `*` listener) is registered;
 * see `SessionManagerOptions.onHandlerError`.
 */
export type HandlerErrorReporter = (error: unknown, event: SessionEventName) => void;

/**
 * The typed event bus of a `SessionManager` (a mitt emitter underneath). Events fire after
 * the change is committed — the state replaced and, when persisting, the line written — so a
 * handler that reads the manager sees the change. Events are delivered in commit order, also
 * when a handler itself appends (that append's events wait until the current event has
 * reached every handler). A handler that throws is isolated: the other handlers still run,
 * the append still succeeded, and the error is reported as a `handlerError` event.
 * Only the manager emits; this view can only subscribe.
 */
export interface SessionEventBus {
  /** Subscribes a handler; returns a function that unsubscribes it. */
  on<K extends SessionEventName>(type: K, handler: Handler<SessionEventMap[K]>): () => void;
  /** Subscribes a handler to every event; returns a function that unsubscribes it. */
  on(type: "*", handler: WildcardHandler<SessionEventMap>): () => void;
  /** Unsubscribes a handler (all handlers of the event when none is given). */
  off<K extends SessionEventName>(type: K, handler?: Handler<SessionEventMap[K]>): void;
  /** Unsubscribes a wildcard handler. */
  off(type: "*", handler?: WildcardHandler<SessionEventMap>): void;
  /** How many handlers listen to `type` (wildcard handlers not included). */
  listenerCount(type: SessionEventName | "*"): number;
}
