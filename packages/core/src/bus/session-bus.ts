import mittImport, { type Emitter } from "mitt";
import type {
  HandlerErrorReporter,
  SessionEventBus,
  SessionEventMap,
  SessionEventName,
} from "./session-events.js";

type MittFactory = typeof mittImport.default;
// mitt's typings describe a CommonJS module (the factory under `.default`), while Node's ESM
// import resolves to mitt's ES build, whose default export is the factory itself. Accept both.
const mitt: MittFactory =
  typeof mittImport === "function"
    ? (mittImport as unknown as MittFactory)
    : (mittImport as { default: MittFactory }).default;

type Queued = { [K in SessionEventName]: readonly [K, SessionEventMap[K]] }[SessionEventName];
type Channel = SessionEventName | "*";
/** Any handler, own or wildcard: the overloads of `on`/`off` say which goes with which type. */
type AnyHandler = (...args: never[]) => void;
/** What mitt holds for a user's handler: the same call, with its error caught. */
type Guarded = (...args: unknown[]) => void;

/** The default reporter when nobody listens for handler errors: never silent. */
const consoleReporter: HandlerErrorReporter = (error, event) => {
  console.error(`[pi-sessions] a "${event}" event handler threw:`, error);
};

/**
 * The manager's side of its {@link SessionEventBus}. mitt stores and dispatches: each user
 * handler is registered with mitt wrapped in a guard that catches and reports its error, so a
 * throwing handler never stops mitt's loop (the others still run) nor reaches the append. What
 * mitt does not do is ours: payloads are built only when someone listens, and events raised
 * during dispatch (a handler that appends) are queued so delivery keeps commit order.
 */
export class SessionBus implements SessionEventBus {
  // One untyped view of mitt: its overloads cannot be picked for a union type.
  private readonly emitter = mitt<SessionEventMap>() as unknown as Emitter<SessionEventMap> & {
    on(type: Channel, handler: Guarded): void;
    off(type: Channel, handler?: Guarded): void;
    emit(type: SessionEventName, payload: unknown): void;
  };
  /** Each channel's user handlers → their guards, oldest first (one per `on` call). */
  private readonly guards = new Map<Channel, Map<AnyHandler, Guarded[]>>();
  private readonly queue: Queued[] = [];
  private draining = false;
  /** Receives handler errors when no `handlerError`/`*` handler is registered, and theirs. */
  reportError: HandlerErrorReporter | undefined;

  readonly on: SessionEventBus["on"] = (type: Channel, handler: AnyHandler) => {
    const guard = this.guard(type, handler as (...args: unknown[]) => void);
    let byHandler = this.guards.get(type);
    if (!byHandler) {
      byHandler = new Map();
      this.guards.set(type, byHandler);
    }
    const list = byHandler.get(handler);
    if (list) list.push(guard);
    else byHandler.set(handler, [guard]);
    this.emitter.on(type, guard);
    return () => this.remove(type, handler, guard);
  };

  readonly off: SessionEventBus["off"] = (type: Channel, handler?: AnyHandler) => {
    if (handler === undefined) {
      this.guards.delete(type);
      this.emitter.off(type);
      return;
    }
    // As mitt does for a handler registered twice: the oldest registration goes first.
    const guard = this.guards.get(type)?.get(handler)?.[0];
    if (guard) this.remove(type, handler, guard);
  };

  listenerCount(type: Channel): number {
    return this.emitter.all.get(type)?.length ?? 0;
  }

  /** Whether an event of this type would reach anyone (its own or wildcard handlers). */
  wants(type: SessionEventName): boolean {
    return this.listenerCount(type) > 0 || this.listenerCount("*") > 0;
  }

  /**
   * Emits through mitt (the event's handlers, then wildcard ones); `make` runs only if someone
   * listens. An event raised while one is being delivered waits until that one reached all.
   */
  emit<K extends SessionEventName>(type: K, make: () => SessionEventMap[K]): void {
    if (!this.wants(type)) return;
    this.queue.push([type, make()] as unknown as Queued);
    if (this.draining) return;
    this.draining = true;
    try {
      for (let item = this.queue.shift(); item !== undefined; item = this.queue.shift()) {
        this.emitter.emit(item[0], item[1]);
      }
    } finally {
      this.draining = false;
    }
  }

  /** The handler as mitt calls it, with its errors reported instead of thrown. */
  private guard(channel: Channel, handler: (...args: unknown[]) => void): Guarded {
    if (channel === "*") {
      return (type, payload) => {
        try {
          handler(type, payload);
        } catch (error) {
          this.handlerFailed(type as SessionEventName, error);
        }
      };
    }
    return (payload) => {
      try {
        handler(payload);
      } catch (error) {
        this.handlerFailed(channel, error);
      }
    };
  }

  /** Unregisters one registration (its guard) of `handler`; a second call does nothing. */
  private remove(type: Channel, handler: AnyHandler, guard: Guarded): void {
    const byHandler = this.guards.get(type);
    const list = byHandler?.get(handler);
    const at = list?.indexOf(guard) ?? -1;
    if (!byHandler || !list || at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) byHandler.delete(handler);
    this.emitter.off(type, guard);
  }

  /** Reports a handler error: as a `handlerError` event, else to the reporter or console. */
  private handlerFailed(type: SessionEventName, error: unknown): void {
    if (type !== "handlerError" && this.wants("handlerError")) {
      this.queue.push(["handlerError", { event: type, error }]);
      if (!this.reportError) return;
    }
    // A failing handlerError handler is not re-emitted (no loops): it goes to the reporter.
    try {
      (this.reportError ?? consoleReporter)(error, type);
    } catch {
      // A reporter that throws has nowhere left to report to; the append must still succeed.
    }
  }
}
