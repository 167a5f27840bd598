import mittImport, { type Emitter, type Handler, type WildcardHandler } from "mitt";
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

/** The default reporter when nobody listens for handler errors: never silent. */
const consoleReporter: HandlerErrorReporter = (error, event) => {
  console.error(`[pi-sessions] a "${event}" event handler threw:`, error);
};

/**
 * The manager's side of its {@link SessionEventBus}: handlers are stored by a mitt emitter,
 * while dispatch is ours so that (1) each handler runs in its own try/catch, (2) events
 * emitted while a dispatch is running (a handler that appends) are queued and delivered after
 * it, in commit order, and (3) nothing is built when nobody listens. Emitting costs O(number
 * of handlers) and never depends on the session's size.
 */
export class SessionBus implements SessionEventBus {
  private readonly emitter: Emitter<SessionEventMap> = mitt<SessionEventMap>();
  private readonly queue: Queued[] = [];
  private draining = false;
  /** Receives handler errors when no `handlerError`/`*` handler is registered, and errors of those. */
  reportError: HandlerErrorReporter | undefined;

  on<K extends SessionEventName>(type: K, handler: Handler<SessionEventMap[K]>): () => void;
  on(type: "*", handler: WildcardHandler<SessionEventMap>): () => void;
  on(type: SessionEventName | "*", handler: Handler<never> | WildcardHandler<SessionEventMap>) {
    // One overload-free call into mitt: its overloads cannot be picked for a union type.
    const em = this.emitter as unknown as { on(t: string, h: unknown): void };
    em.on(type, handler);
    return () => this.off(type as "*", handler as WildcardHandler<SessionEventMap>);
  }

  off<K extends SessionEventName>(type: K, handler?: Handler<SessionEventMap[K]>): void;
  off(type: "*", handler?: WildcardHandler<SessionEventMap>): void;
  off(type: SessionEventName | "*", handler?: unknown): void {
    const em = this.emitter as unknown as { off(t: string, h?: unknown): void };
    em.off(type, handler);
  }

  listenerCount(type: SessionEventName | "*"): number {
    return this.emitter.all.get(type)?.length ?? 0;
  }

  /** Whether an event of this type would reach anyone (its own or wildcard handlers). */
  wants(type: SessionEventName): boolean {
    const all = this.emitter.all;
    return (all.get(type)?.length ?? 0) > 0 || (all.get("*")?.length ?? 0) > 0;
  }

  /**
   * Delivers an event to its handlers, then to wildcard handlers; `make` builds the payload
   * only when someone listens. Call only after the change is committed.
   */
  emit<K extends SessionEventName>(type: K, make: () => SessionEventMap[K]): void {
    if (!this.wants(type)) return;
    this.queue.push([type, make()] as unknown as Queued);
    if (this.draining) return;
    this.draining = true;
    try {
      for (let item = this.queue.shift(); item !== undefined; item = this.queue.shift()) {
        this.dispatch(item);
      }
    } finally {
      this.draining = false;
    }
  }

  private dispatch([type, payload]: Queued): void {
    const all = this.emitter.all;
    // Copies, as mitt does: handlers added or removed during dispatch apply from the next event.
    const handlers = (all.get(type) ?? []).slice() as Handler<Queued[1]>[];
    const wildcards = (all.get("*") ?? []).slice() as WildcardHandler<SessionEventMap>[];
    for (const handler of handlers) {
      try {
        handler(payload);
      } catch (error) {
        this.handlerFailed(type, error);
      }
    }
    for (const handler of wildcards) {
      try {
        handler(type, payload);
      } catch (error) {
        this.handlerFailed(type, error);
      }
    }
  }

  /** Reports a handler error: as a `handlerError` event, else to the reporter or console. */
  private handlerFailed(type: SessionEventName, error: unknown): void {
    if (type !== "handlerError" && this.wants("handlerError")) {
      this.queue.push(["handlerError", { event: type, error }]);
      if (this.reportError) this.safeReport(error, type);
      return;
    }
    // A failing handlerError handler is not re-emitted (no loops): it goes to the reporter.
    this.safeReport(error, type);
  }

  private safeReport(error: unknown, type: SessionEventName): void {
    try {
      (this.reportError ?? consoleReporter)(error, type);
    } catch {
      // A reporter that throws has nowhere left to report to; the append must still succeed.
    }
  }
}
