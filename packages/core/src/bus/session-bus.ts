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
/** Any handler, own or wildcard: the overloads of `on`/`off` say which goes with which type. */
type AnyHandler = (...args: never[]) => void;

/** The default reporter when nobody listens for handler errors: never silent. */
const consoleReporter: HandlerErrorReporter = (error, event) => {
  console.error(`[pi-sessions] a "${event}" event handler threw:`, error);
};

/**
 * The manager's side of its {@link SessionEventBus}: mitt stores the handlers; dispatch is ours,
 * for the isolation and commit order promised there, and so nothing is built when nobody listens.
 */
export class SessionBus implements SessionEventBus {
  // One untyped view of mitt: its overloads cannot be picked for a union type.
  private readonly emitter = mitt<SessionEventMap>() as unknown as Emitter<SessionEventMap> & {
    on(type: string, handler: AnyHandler): void;
    off(type: string, handler?: AnyHandler): void;
  };
  private readonly queue: Queued[] = [];
  private draining = false;
  /** Receives handler errors when no `handlerError`/`*` handler is registered, and theirs. */
  reportError: HandlerErrorReporter | undefined;

  readonly on: SessionEventBus["on"] = (type: SessionEventName | "*", handler: AnyHandler) => {
    this.emitter.on(type, handler);
    return () => this.emitter.off(type, handler);
  };

  readonly off: SessionEventBus["off"] = (type: SessionEventName | "*", handler?: AnyHandler) => {
    this.emitter.off(type, handler);
  };

  listenerCount(type: SessionEventName | "*"): number {
    return this.emitter.all.get(type)?.length ?? 0;
  }

  /** Whether an event of this type would reach anyone (its own or wildcard handlers). */
  wants(type: SessionEventName): boolean {
    return this.listenerCount(type) > 0 || this.listenerCount("*") > 0;
  }

  /** Delivers to the event's handlers, then wildcard ones; `make` runs only if someone listens. */
  emit<K extends SessionEventName>(type: K, make: () => SessionEventMap[K]): void {
    if (!this.wants(type)) return;
    this.queue.push([type, make()] as unknown as Queued);
    if (this.draining) return;
    this.draining = true;
    try {
      for (let item = this.queue.shift(); item !== undefined; item = this.queue.shift()) {
        const [type, payload] = item;
        const own = this.emitter.all.get(type) ?? [];
        const ownCount = own.length;
        // A copy, as mitt makes: handlers added or removed during dispatch apply from the next event.
        const handlers = [...own, ...(this.emitter.all.get("*") ?? [])] as AnyHandler[];
        for (let i = 0; i < handlers.length; i++) {
          const handler = handlers[i] as (...args: unknown[]) => void;
          try {
            if (i < ownCount) handler(payload);
            else handler(type, payload);
          } catch (error) {
            this.handlerFailed(type, error);
          }
        }
      }
    } finally {
      this.draining = false;
    }
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
