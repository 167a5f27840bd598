import { SessionBus } from "../bus/session-bus.js";
import type { SessionEventBus, SessionSwitchReason } from "../bus/session-events.js";
import type { FoldContext, Projection } from "../projections/define-projection.js";
import type { SessionEntry } from "../schema/types.js";
import { type EntryLog, entryAt, getLogEntry } from "../state/entry-log.js";
import { EntryRejectedError, type EntryValidator } from "./entry-validation.js";
import { SessionReader } from "./session-reader.js";

/** Folds one projection over the whole log, lookups limited to the entries before each one. */
function replayOne(projection: Projection<unknown>, log: EntryLog): unknown {
  let state = projection.init();
  for (let i = 0; i < log.length; i++) {
    const before: EntryLog = { store: log.store, length: i, distinct: 0 };
    const ctx: FoldContext = { position: i, getEntry: (id) => getLogEntry(before, id) };
    state = projection.apply(state, entryAt(log, i), ctx);
  }
  return state;
}

/**
 * What a manager offers extensions (plugins) beyond the reference API: the event bus, append
 * guards, and projections added or removed at run time. Kept apart from the editor so each
 * file holds one concern; the editor calls {@link validateEntry} and the emit helpers at its
 * commit points.
 */
export abstract class SessionObservable extends SessionReader {
  /** The bus; `events` is its subscribe-only view. */
  protected readonly bus = new SessionBus();
  /**
   * The typed event bus: `entryAppended`, `leafMoved`, `sessionSwitched`, `diagnostics`,
   * `handlerError` (see {@link SessionEventBus}). Events fire after the change is committed.
   */
  readonly events: SessionEventBus = this.bus;
  /** Replaced, never mutated, so a validator may remove itself while validators run. */
  private validators: readonly EntryValidator[] = [];

  /**
   * Adds a guard that every later append must pass: it sees the finished entry before it is
   * folded or written and may refuse it, in which case the append throws
   * {@link EntryRejectedError} and changes nothing. Returns a function that removes the guard.
   */
  addEntryValidator(validator: EntryValidator): () => void {
    this.validators = [...this.validators, validator];
    return () => {
      this.validators = this.validators.filter((v) => v !== validator);
    };
  }

  /** Runs every validator on an entry about to be appended; throws on the first refusal. */
  protected validateEntry(entry: SessionEntry): void {
    for (const validator of this.validators) {
      const rejection = validator(entry);
      if (rejection !== undefined) throw new EntryRejectedError(entry, rejection);
    }
  }

  /**
   * Adds a projection to this manager: it is replayed over the current log once (O(n)),
   * folded on every later append (as `options.projections` are) and replayed whenever another
   * session is loaded. Its state is read with `getProjectionState(name)` and is part of every
   * later `getState()` snapshot. Throws when a projection with that name is already added.
   */
  addProjection(projection: Projection<unknown>): void {
    if (this.projections.some((p) => p.name === projection.name)) {
      throw new Error(`Projection "${projection.name}" is already registered`);
    }
    const slot = { projection, state: replayOne(projection, this.state.log) };
    this.projections = [...this.projections, projection];
    this.state = { ...this.state, extra: [...this.state.extra, slot] };
  }

  /** Removes a projection added by name (from the options or {@link addProjection}); false if none. */
  removeProjection(name: string): boolean {
    if (!this.projections.some((p) => p.name === name)) return false;
    this.projections = this.projections.filter((p) => p.name !== name);
    this.state = {
      ...this.state,
      extra: this.state.extra.filter((s) => s.projection.name !== name),
    };
    return true;
  }

  /** Emits `entryAppended` for a committed append. O(1) (nothing at all without listeners). */
  protected emitAppended(entry: SessionEntry): void {
    this.bus.emit("entryAppended", () => ({ entry, leafId: entry.id }));
  }

  /** Emits `leafMoved` for a committed leaf move that changed the leaf. */
  protected emitLeafMoved(from: string | null, to: string | null): void {
    if (from !== to) this.bus.emit("leafMoved", () => ({ from, to }));
  }

  /** The id and file of the session held now, for a later {@link emitSwitched}. */
  protected sessionRef(): { readonly sessionId: string; readonly file: string | undefined } {
    return { sessionId: this.getSessionId(), file: this.sessionFile };
  }

  /**
   * Emits `sessionSwitched` once a whole session was replaced, then `diagnostics` when a
   * loaded file has load problems (computed only if someone listens: it costs O(n)).
   */
  protected emitSwitched(
    reason: SessionSwitchReason,
    previous: { readonly sessionId: string; readonly file: string | undefined },
  ): void {
    const sessionId = this.getSessionId();
    const file = this.sessionFile;
    this.bus.emit("sessionSwitched", () => ({
      reason,
      sessionId,
      file,
      previousSessionId: previous.sessionId,
      previousFile: previous.file,
    }));
    if (reason !== "open" || !this.bus.wants("diagnostics")) return;
    const diagnostics = this.getLoadDiagnostics();
    if (diagnostics.length > 0) {
      this.bus.emit("diagnostics", () => ({ sessionId, file, diagnostics }));
    }
  }
}
