import { dirname } from "node:path";
import { SessionBus } from "../bus/session-bus.js";
import type { SessionSwitchReason } from "../bus/session-events.js";
import { asError } from "../env/as-error.js";
import { type SessionEnv, systemEnv } from "../env/env.js";
import { assertValidSessionId } from "../env/ids.js";
import { resolveCwd } from "../env/paths.js";
import { jsonClone } from "../format/json-clone.js";
import { splitRecords } from "../format/load-text.js";
import { findHeaderIndex } from "../format/record-rules.js";
import { createHeader } from "../format/serialize.js";
import * as builtinProjections from "../projections/builtins.js";
import type { NewSessionOptions, SessionEntry, SessionHeader } from "../schema/types.js";
import { type LoadDiagnostic, structuralDiagnostics } from "../state/diagnostics.js";
import { hasSeenId, lastEntry } from "../state/entry-log.js";
import type { Projection } from "../state/projection.js";
import * as sessionState from "../state/session-state.js";
import { fileStore } from "../store/file-store.js";
import { memorySink, memoryStore } from "../store/memory-store.js";
import { ensureDir } from "../store/paths.js";
import type { SessionSink, SessionStore, StoredSession } from "../store/session-store.js";
import { SessionStoreFailedError } from "../store/session-store.js";
import type { Durability } from "../store/session-writer.js";
import { branchedEntries } from "./branched-session.js";
import type { EntryValidator } from "./entry-validation.js";
import type { SessionManagerOptions } from "./session-manager-options.js";

/**
 * A sink's flush as a value: undefined once durable, or the failure. Never rejects, and never
 * throws: a sink of someone else's may throw from `flush()` instead of rejecting, and a switch
 * of session must not fail half-way for it.
 */
export const outcomeOf = (sink: SessionSink): Promise<Error | undefined> =>
  flushOf(sink).then(() => undefined, asError);

/** A sink's flush, rejecting (never throwing) when the sink's `flush()` throws. */
function flushOf(sink: SessionSink): Promise<void> {
  try {
    return sink.flush();
  } catch (error) {
    return Promise.reject(asError(error));
  }
}

/**
 * The mutable half of a `SessionManager`: the current immutable state, the store and sink it is
 * written through, what its load found, and the bus. Every switch of session (open, new,
 * branched, reload, fork) goes through here, so the manager's public methods stay one-liners
 * over it and the append path (`append-path.ts`) shares it without reaching into the class.
 */
export class ManagedSession {
  state: sessionState.SessionState;
  readonly env: SessionEnv;
  readonly durability: Durability | undefined;
  readonly whenRefused: "throw" | "fork" | undefined;
  readonly columnsFor: SessionManagerOptions["columnsFor"];
  projections: readonly Projection<unknown>[];
  readonly cwd: string;
  store: SessionStore = memoryStore;
  sink: SessionSink = memorySink;
  /** What the load of the session found: its problems and, from text, each entry's line. */
  loaded: Pick<StoredSession, "diagnostics" | "entryLines"> = { diagnostics: [] };
  /** The outcome of the queued writes of sessions switched away from, for `flush()`. */
  readonly retired = new Set<Promise<Error | undefined>>();
  readonly bus = new SessionBus();
  /** Replaced, never mutated, so a validator may remove itself while validators run. */
  validators: readonly EntryValidator[] = [];

  /** Whether an id was ever used in the current state (one function for the session's life). */
  readonly idTaken = (id: string): boolean => hasSeenId(this.state.log, id);
  /** The entry just appended, as callers get it (one function, not a closure per append). */
  readonly appended = (): SessionEntry => lastEntry(this.state.log) as SessionEntry;
  /** The whole session so far, for a store's first write. */
  readonly content = () => ({
    header: this.state.header as SessionHeader,
    entries: sessionState.entriesOf(this.state),
  });

  constructor(cwd: string, options: SessionManagerOptions, store?: SessionStore) {
    this.durability = options.durability;
    this.whenRefused = options.whenRefused;
    this.columnsFor = options.columnsFor;
    this.env = options.env ?? systemEnv;
    this.projections = options.projections ?? [];
    this.bus.reportError = options.onHandlerError;
    this.cwd = resolveCwd(cwd);
    this.state = builtinProjections.initialState(null, this.projections);
    if (store) this.store = store;
  }

  /** Makes this session file-backed in `dir` (created with mode 0700 if missing). */
  useDir(dir: string): void {
    ensureDir(dir);
    const { durability, env, columnsFor } = this;
    this.store = fileStore(dir, { durability, env, columnsFor });
  }

  /**
   * A new session of `header` and `entries` (handed over), created by the store before the switch
   * so a failure leaves the old one. The store gets its own array: the adopted one grows.
   */
  start(header: SessionHeader, entries: SessionEntry[], now = false): void {
    const sink = this.store.create(header, entries.slice(), now ? "now" : "conversation");
    this.adopt({ header, entries, diagnostics: [] }, sink);
  }

  /** Replaces the session by the one at `location` (missing: pending; empty: header written). */
  openLocation(location: string): void {
    const opened = this.store.open(location, () => this.newHeader());
    this.adopt(opened, opened.sink);
  }

  /** Replaces the session: the old sink is closed, the new content replayed. */
  adopt(session: StoredSession, sink: SessionSink): void {
    this.replaceSink(sink);
    this.state = session.columns
      ? builtinProjections.replayColumns(session.header, session.columns, this.projections)
      : builtinProjections.replayState(session.header, session.entries, this.projections, true);
    this.loaded = { diagnostics: session.diagnostics, entryLines: session.entryLines };
  }

  /** Makes `sink` the session's; the old one is closed, its queued writes kept for `flush()`. */
  replaceSink(sink: SessionSink): void {
    if (sink !== this.sink) {
      // The old sink's queued writes count for the next flush() until they succeed.
      const outcome = outcomeOf(this.sink);
      this.retired.add(outcome);
      void outcome.then((e) => e === undefined && this.retired.delete(outcome));
      this.sink.close();
    }
    this.sink = sink;
  }

  /** Replaces the state by migrated records (header adopted, or a new one from options). */
  adoptRecords(records: Record<string, unknown>[], options?: NewSessionOptions): void {
    // Headerless entries join a fresh v3 header first, so they are not taken for v1 records.
    const withHeader =
      findHeaderIndex(records) >= 0 ? records : [jsonClone(this.newHeader(options)), ...records];
    this.adopt(splitRecords(withHeader, this.env), this.sink);
  }

  /** Builds a fresh header (SPEC §4 newSession) after validating a custom id. */
  newHeader(options?: NewSessionOptions, parentSession = options?.parentSession): SessionHeader {
    if (options?.id !== undefined) assertValidSessionId(options.id);
    const id = options?.id ?? this.env.uuidv7();
    const timestamp = this.env.now().toISOString();
    return createHeader({ id, timestamp, cwd: this.cwd, parentSession });
  }

  /** Starts a new session, written at its first conversation message (SPEC §6.2). */
  startNew(options?: NewSessionOptions): void {
    this.switchSession("new", () => this.start(jsonClone(this.newHeader(options)), []));
  }

  /**
   * A new session of `path` (root to a leaf), labels recreated (SPEC §9). [Fix] W24:
   * `parentSession` names the previous file only if that file exists.
   */
  startBranched(path: SessionEntry[]): void {
    this.switchSession("branched", () => {
      const labels = builtinProjections.labelMapOf(this.state);
      const entries = branchedEntries(path, labels, this.env);
      const parent = this.sink.written ? this.sink.location : undefined;
      const c = jsonClone({ header: this.newHeader(undefined, parent), entries });
      this.start(c.header, c.entries);
    });
  }

  /** Switches to another session file by the load rules of `open`, keeping the cwd. */
  openFile(file: string): void {
    this.switchSession("open", () => {
      if (!this.store.persisted) this.useDir(dirname(file));
      this.openLocation(file);
    });
  }

  /** Resolves once every append so far is durable; rejects with a failure. */
  flush(): Promise<void> {
    // The usual case, one sink and none switched away from: its own flush, without the
    // promises of gathering outcomes (a writer that awaits each append pays them every time).
    return this.retired.size === 0 ? flushOf(this.sink) : this.flushAll();
  }

  /** `flush()` over the sinks switched away from and the current one. */
  private async flushAll(): Promise<void> {
    const pending = [...this.retired, outcomeOf(this.sink)];
    this.retired.clear();
    const failure = (await Promise.all(pending)).find((e) => e !== undefined);
    if (failure) throw failure;
  }

  /** Problems found at load (with line numbers), plus structural ones (duplicates, cycles). */
  loadDiagnostics(): LoadDiagnostic[] {
    const lineOf = (pos: number) => this.loaded.entryLines?.lineOf(pos);
    return [...this.loaded.diagnostics, ...structuralDiagnostics(this.state.log, lineOf)];
  }

  /**
   * Runs first in every public write; refuses once the store failed. When an older manager of
   * this process appended to our file since we read it (pi's old session's shutdown handler
   * after a resume), the session is reloaded: a leaf at the old tip follows entries continuing it.
   */
  catchUp(): void {
    const sink = this.sink;
    if (sink.failure) throw new SessionStoreFailedError(sink.failure);
    const location = sink.location;
    if (!sink.changedElsewhere() || location === undefined) return;
    const leaf = this.state.leafId;
    const atTip = leaf !== null && leaf === lastEntry(this.state.log)?.id;
    this.switchSession("reload", () => {
      this.openLocation(location);
      const tip = this.state.leafId;
      const follows =
        atTip &&
        tip !== null &&
        builtinProjections.branchOf(this.state, tip).some((e) => e.id === leaf);
      const stays =
        !follows && (leaf === null || sessionState.entryOf(this.state, leaf) !== undefined);
      if (stays) this.state = sessionState.withLeaf(this.state, leaf);
    });
  }

  /** Adds a guard every later append must pass; returns its removal. */
  addValidator(validator: EntryValidator): () => void {
    this.validators = [...this.validators, validator];
    return () => {
      this.validators = this.validators.filter((v) => v !== validator);
    };
  }

  /** Adds a projection, replayed over the log once (O(n)); throws for a name already in use. */
  addProjection(projection: Projection<unknown>): void {
    const next = sessionState.withProjection(this.state, projection);
    if (!next) throw new Error(`Projection "${projection.name}" is already registered`);
    this.projections = [...this.projections, projection];
    this.state = next;
  }

  /** Removes a projection added by name; false if none, or if it holds a built-in role. */
  removeProjection(name: string): boolean {
    // A built-in role (or its replacement) answers the pi API: it stays.
    if (builtinProjections.isBuiltinName(name) || !this.projections.some((p) => p.name === name))
      return false;
    this.projections = this.projections.filter((p) => p.name !== name);
    this.state = sessionState.withoutProjection(this.state, name);
    return true;
  }

  /** Moves the leaf (writes nothing) and tells `leafMoved` listeners. */
  moveLeaf(to: string | null): void {
    const from = this.state.leafId;
    this.state = sessionState.withLeaf(this.state, to);
    this.emitLeafMoved(from, to);
  }

  emitLeafMoved(from: string | null, to: string | null): void {
    if (from !== to) this.bus.emit("leafMoved", () => ({ from, to }));
  }

  /** Replaces the session, then emits `sessionSwitched` and an opened file's `diagnostics`. */
  switchSession(reason: SessionSwitchReason, replace: () => void, refusal?: Error): void {
    const previous = {
      previousSessionId: this.state.header?.id ?? "",
      previousFile: this.sink.location,
    };
    replace();
    const sessionId = this.state.header?.id ?? "";
    const file = this.sink.location;
    const why = refusal ? { refusal } : {};
    this.bus.emit("sessionSwitched", () => ({ reason, sessionId, file, ...previous, ...why }));
    if (reason !== "open" || !this.bus.wants("diagnostics")) return;
    const diagnostics = this.loadDiagnostics(); // O(n): only when someone listens
    if (diagnostics.length > 0)
      this.bus.emit("diagnostics", () => ({ sessionId, file, diagnostics }));
  }
}
