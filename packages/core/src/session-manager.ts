import { dirname, resolve } from "node:path";
import { SessionBus } from "./bus/session-bus.js";
import type * as sessionEvents from "./bus/session-events.js";
import { type SessionEnv, systemEnv } from "./env/env.js";
import { assertValidSessionId, generateEntryId } from "./env/ids.js";
import { resolveCwd } from "./env/paths.js";
import { jsonClone } from "./format/json-clone.js";
import { loadText, splitRecords } from "./format/load-text.js";
import { findHeaderIndex } from "./format/record-rules.js";
import { createHeader } from "./format/serialize.js";
import { branchedEntries } from "./manager/branched-session.js";
import * as entryBuilders from "./manager/entry-builders.js";
import * as entryValidation from "./manager/entry-validation.js";
import { systemCheckpoint } from "./manager/system-checkpoint.js";
import * as builtinProjections from "./projections/builtins.js";
import { sanitizeSessionName } from "./projections/session-name.js";
import type * as schema from "./schema/types.js";
import { type LoadDiagnostic, structuralDiagnostics } from "./state/diagnostics.js";
import { hasSeenId, lastEntry, lineAt } from "./state/entry-log.js";
import type { Projection } from "./state/projection.js";
import * as sessionState from "./state/session-state.js";
import { type DeleteResult, deleteSessionFile } from "./store/delete.js";
import { findMostRecentSession, findSessionById, readHeader } from "./store/discovery.js";
import { fileStore } from "./store/file-store.js";
import * as listing from "./store/listing.js";
import { memorySink, memoryStore } from "./store/memory-store.js";
import * as paths from "./store/paths.js";
import { isForeignRefusal } from "./store/refusal.js";
import type { SessionSink, SessionStore, StoredSession } from "./store/session-store.js";
import { SessionStoreFailedError } from "./store/session-store.js";
import type { Durability } from "./store/session-writer.js";
import { resolveSessionDir, samePath } from "./store/store-helpers.js";
import type { ColumnsFor } from "./store/vouched-columns.js";

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

const notFound = (id: string) => new entryBuilders.EntryNotFoundError(id);
/** A sink's flush as a value: undefined once durable, or the failure (never rejects). */
const outcomeOf = (sink: SessionSink): Promise<Error | undefined> =>
  sink.flush().then(
    () => undefined,
    (e: Error) => e,
  );
type Progress = listing.SessionListProgress;

/**
 * `sessionDir` as the reference resolves it, else the cwd's default one (creating nothing, W13),
 * and whether it is the default one, the only one where a header without a cwd matches (W17).
 */
function dirFor(sessionDir: string | undefined, cwd: string): [dir: string, isDefault: boolean] {
  const home = paths.defaultSessionDirPath(resolveCwd(cwd));
  const dir = sessionDir ? resolveSessionDir(sessionDir) : home;
  return [dir, samePath(dir, home)];
}

/**
 * A pi session, drop-in for the reference `SessionManager` (SPEC §4–§10, statics included).
 * Every change folds one entry into a new immutable `SessionState` at once, then hands it to
 * the sink of its `SessionStore` (memory, JSONL files, or an asynchronous store).
 */
export class SessionManager {
  private state: sessionState.SessionState;
  private readonly env: SessionEnv;
  private readonly durability: SessionManagerOptions["durability"];
  private readonly whenRefused: SessionManagerOptions["whenRefused"];
  private readonly columnsFor: SessionManagerOptions["columnsFor"];
  private projections: readonly Projection<unknown>[];
  private readonly cwd: string;
  private store: SessionStore = memoryStore;
  private sink: SessionSink = memorySink;
  /** What the load of the session found: its problems and, from text, each entry's line. */
  private loaded: Pick<StoredSession, "diagnostics" | "entryLines"> = { diagnostics: [] };
  /** The outcome of the queued writes of sessions switched away from, for `flush()`. */
  private readonly retired = new Set<Promise<Error | undefined>>();
  private readonly bus = new SessionBus();
  /** Replaced, never mutated, so a validator may remove itself while validators run. */
  private validators: readonly entryValidation.EntryValidator[] = [];
  /** The typed event bus ({@link sessionEvents.SessionEventBus}); events fire after the change is committed. */
  readonly events: sessionEvents.SessionEventBus = this.bus;

  protected constructor(cwd: string, options: SessionManagerOptions = {}, store?: SessionStore) {
    this.durability = options.durability;
    this.whenRefused = options.whenRefused;
    this.columnsFor = options.columnsFor;
    this.env = options.env ?? systemEnv;
    this.projections = options.projections ?? [];
    this.bus.reportError = options.onHandlerError;
    this.cwd = resolveCwd(cwd);
    this.state = builtinProjections.initialState(null, this.projections);
    if (store) this.store = store;
    if (options.strict) this.validators = [entryValidation.schemaValidator];
  }

  // --- factories and discovery (SPEC §4, §6, §10); discovery only reads (W13) ---------------

  /** In memory; `entries` are copied (W20), migrated, replayed, their header adopted (§6.6). */
  static inMemory(
    cwd: string = process.cwd(),
    options?: SessionManagerOptions,
    entries?: schema.FileEntry[],
  ): SessionManager {
    const sm = new this(cwd || process.cwd(), options);
    if (!entries || entries.length === 0) sm.newSession(options);
    else sm.adoptRecords(jsonClone(entries) as unknown as Record<string, unknown>[], options);
    return sm;
  }

  /**
   * Our addition: JSONL text loaded in memory as a file opens; the cwd defaults to the
   * header's. Throws `InvalidSessionError` when the text has no valid header first.
   */
  static fromJsonl(text: string, cwd?: string, options?: SessionManagerOptions): SessionManager {
    const loaded = loadText(text, options?.env ?? systemEnv);
    const headerCwd = typeof loaded.header?.cwd === "string" && loaded.header.cwd;
    const sm = new this(cwd || headerCwd || process.cwd(), options);
    sm.adopt(loaded, sm.sink);
    return sm;
  }

  /** A new session in any store (a database, a custom folder layout). */
  static withStore(
    store: SessionStore,
    cwd: string,
    options?: SessionManagerOptions,
  ): SessionManager {
    const sm = new this(cwd, options, store);
    sm.newSession(options);
    return sm;
  }

  /** A new persisted session in `sessionDir` (default: the cwd's directory, created). */
  static create(cwd: string, sessionDir?: string, options?: SessionManagerOptions): SessionManager {
    const sm = new this(cwd, options);
    sm.useDir(dirFor(sessionDir, sm.cwd)[0]);
    sm.newSession(options);
    return sm;
  }

  /** Opens a session file (SPEC §6.5); `options` is our addition. */
  static open(
    path: string,
    sessionDir?: string,
    cwdOverride?: string,
    options?: SessionManagerOptions,
  ): SessionManager {
    const file = resolve(path);
    // No scan limit: the reference falls back to a full scan for a header over 1 MiB.
    const headerCwd = readHeader(file, Number.POSITIVE_INFINITY)?.cwd;
    const cwd = cwdOverride ?? (typeof headerCwd === "string" ? headerCwd : process.cwd());
    const sm = new this(cwd, options);
    sm.useDir(sessionDir ? resolveSessionDir(sessionDir) : dirname(file));
    sm.openLocation(file);
    return sm;
  }

  /** The most recent session of `cwd`, or a new one. [Fix] W17: other cwds are skipped. */
  static continueRecent(
    cwd: string,
    sessionDir?: string,
    options?: SessionManagerOptions,
  ): SessionManager {
    const sm = new this(cwd, options);
    const [dir, isDefault] = dirFor(sessionDir, sm.cwd);
    sm.useDir(dir);
    const recent = findMostRecentSession(dir, sm.cwd, isDefault);
    if (recent) sm.openLocation(recent);
    else sm.newSession(options);
    return sm;
  }

  /**
   * Copies a whole session into a new file for `targetCwd`, written at once. The source is
   * only read (W13) and migrated in memory (W12); `options.parentSession` is ignored.
   */
  static forkFrom(
    sourcePath: string,
    targetCwd: string,
    sessionDir?: string,
    options?: SessionManagerOptions,
  ): SessionManager {
    const source = resolve(sourcePath);
    const sm = new this(targetCwd, options);
    const [dir] = dirFor(sessionDir, sm.cwd);
    const { entries } = fileStore(dir, { env: sm.env }).read(source);
    sm.useDir(dir);
    sm.start(jsonClone(sm.newHeader({ id: options?.id }, source)), entries, true);
    return sm;
  }

  /** The path of the session with exactly this id among `cwd`'s (headers only), or undefined. */
  static findById(cwd: string, id: string, sessionDir?: string): string | undefined {
    const [dir, isDefault] = dirFor(sessionDir, cwd);
    return findSessionById(dir, id, cwd, isDefault);
  }

  /** The sessions of `cwd`, newest activity first (SPEC §10.5); unchanged files are cached. */
  static list(
    cwd: string,
    sessionDir?: string,
    onProgress?: Progress,
    signal?: AbortSignal,
  ): Promise<schema.SessionInfo[]> {
    const [dir, emptyCwdMatches] = dirFor(sessionDir, cwd);
    return listing.listSessions(dir, { filterCwd: cwd, emptyCwdMatches, onProgress, signal });
  }

  /** Every session of every working directory, or of one `sessionDir` (SPEC §10.5). */
  static listAll(onProgress?: Progress, signal?: AbortSignal): Promise<schema.SessionInfo[]>;
  static listAll(
    sessionDir?: string,
    onProgress?: Progress,
    signal?: AbortSignal,
  ): Promise<schema.SessionInfo[]>;
  static listAll(
    first?: string | Progress,
    second?: Progress | AbortSignal,
    third?: AbortSignal,
  ): Promise<schema.SessionInfo[]> {
    if (typeof first !== "string") {
      const signal = second as AbortSignal | undefined;
      return listing.listAllSessions(paths.getSessionsRoot(), { onProgress: first, signal });
    }
    const onProgress = second as Progress | undefined;
    return listing.listSessionsInDir(resolveSessionDir(first), { onProgress, signal: third });
  }

  /** Deletes a session file: to the trash when a `trash` command exists, else unlinked (§1.6). */
  static deleteSession(path: string): DeleteResult {
    return deleteSessionFile(resolve(path));
  }

  /** Switches to another session file by the load rules of `open`, keeping the current cwd. */
  setSessionFile(sessionFile: string): void {
    this.switchSession("open", () => {
      if (!this.store.persisted) this.useDir(dirname(resolve(sessionFile)));
      this.openLocation(resolve(sessionFile));
    });
  }

  /** Starts a new session, written at its first conversation message (SPEC §6.2). */
  newSession(options?: schema.NewSessionOptions): string | undefined {
    this.switchSession("new", () => this.start(jsonClone(this.newHeader(options)), []));
    return this.sink.location;
  }

  /**
   * A new session of the path to `leafId`, labels recreated (SPEC §9). [Fix] W24:
   * `parentSession` names the previous file only if that file exists.
   */
  createBranchedSession(leafId: string): string | undefined {
    const path = builtinProjections.branchOf(this.state, leafId);
    if (path.length === 0) throw notFound(leafId);
    this.switchSession("branched", () => {
      const entries = branchedEntries(path, builtinProjections.labelMapOf(this.state), this.env);
      const parent = this.sink.written ? this.sink.location : undefined;
      const c = jsonClone({ header: this.newHeader(undefined, parent), entries });
      this.start(c.header, c.entries);
    });
    return this.sink.location;
  }

  /**
   * Our addition: releases the fd and lock. The next append takes the lock again after checking
   * nobody wrote meanwhile (else `SessionConflictError`); a manager taken over stays refused.
   */
  close(): void {
    this.sink.release();
  }

  /** Our addition: resolves once every append so far is durable; rejects with a failure. */
  async flush(): Promise<void> {
    const pending = [...this.retired, outcomeOf(this.sink)];
    this.retired.clear();
    const failure = (await Promise.all(pending)).find((e) => e !== undefined);
    if (failure) throw failure;
  }

  /** Makes this manager file-backed in `dir` (created with mode 0700 if missing). */
  private useDir(dir: string): void {
    paths.ensureDir(dir);
    const { durability, env, columnsFor } = this;
    this.store = fileStore(dir, { durability, env, columnsFor });
  }

  /**
   * A new session of `header` and `entries` (handed over), created by the store before the switch
   * so a failure leaves the old one. The store gets its own array: the adopted one grows.
   */
  private start(header: schema.SessionHeader, entries: schema.SessionEntry[], now = false): void {
    const sink = this.store.create(header, entries.slice(), now ? "now" : "conversation");
    this.adopt({ header, entries, diagnostics: [] }, sink);
  }

  /** Replaces the session by the one at `location` (missing: pending; empty: header written). */
  private openLocation(location: string): void {
    const opened = this.store.open(location, () => this.newHeader());
    this.adopt(opened, opened.sink);
  }

  /** Replaces the session: the old sink is closed, the new content replayed. */
  private adopt(session: StoredSession, sink: SessionSink): void {
    this.replaceSink(sink);
    this.state = session.columns
      ? builtinProjections.replayColumns(session.header, session.columns, this.projections)
      : builtinProjections.replayState(session.header, session.entries, this.projections, true);
    this.loaded = { diagnostics: session.diagnostics, entryLines: session.entryLines };
  }

  /** Makes `sink` the session's; the old one is closed, its queued writes kept for `flush()`. */
  private replaceSink(sink: SessionSink): void {
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
  protected adoptRecords(
    records: Record<string, unknown>[],
    options?: schema.NewSessionOptions,
  ): void {
    // Headerless entries join a fresh v3 header first, so they are not taken for v1 records.
    const withHeader =
      findHeaderIndex(records) >= 0 ? records : [jsonClone(this.newHeader(options)), ...records];
    this.adopt(splitRecords(withHeader, this.env), this.sink);
  }

  /** Builds a fresh header (SPEC §4 newSession) after validating a custom id. */
  private newHeader(
    options?: schema.NewSessionOptions,
    parentSession = options?.parentSession,
  ): schema.SessionHeader {
    if (options?.id !== undefined) assertValidSessionId(options.id);
    const id = options?.id ?? this.env.uuidv7();
    const timestamp = this.env.now().toISOString();
    return createHeader({ id, timestamp, cwd: this.cwd, parentSession });
  }

  // --- reading (the reference's names and behaviour unless said) -----------------------------

  /** Whether the store persists (true before the file exists). */
  isPersisted(): boolean {
    return this.store.persisted;
  }
  /** The resolved working directory. */
  getCwd(): string {
    return this.cwd;
  }
  /** The session directory (`""` in memory). */
  getSessionDir(): string {
    return this.store.dir;
  }
  /** Whether the session directory is the default one for the cwd. */
  usesDefaultSessionDir(): boolean {
    return this.store.persisted && samePath(this.store.dir, paths.defaultSessionDirPath(this.cwd));
  }
  /** The header's session id. */
  getSessionId(): string {
    return this.state.header?.id ?? "";
  }
  /** The session file path (undefined in memory). */
  getSessionFile(): string | undefined {
    return this.sink.location;
  }
  /** The header record, or null. Read-only. */
  getHeader(): schema.SessionHeader | null {
    return this.state.header;
  }
  /** The current immutable snapshot of the whole session. */
  getState(): sessionState.SessionState {
    return this.state;
  }
  /** The state of a projection registered through `options.projections`, by name. */
  getProjectionState<S = unknown>(name: string): S | undefined {
    return sessionState.projectionState(this.state, name) as S | undefined;
  }
  /** Problems found at load (with line numbers), plus structural ones (duplicates, cycles). */
  getLoadDiagnostics(): LoadDiagnostic[] {
    const lineOf = (pos: number) => this.getEntryLineNumber(pos);
    return [...this.loaded.diagnostics, ...structuralDiagnostics(this.state.log, lineOf)];
  }
  /** The 1-based file line of the entry at `position` (file order), if it was loaded. */
  getEntryLineNumber(position: number): number | undefined {
    return this.loaded.entryLines?.lineOf(position);
  }
  /** The leaf id, or null. */
  getLeafId(): string | null {
    return this.state.leafId;
  }
  /** The leaf entry, or undefined when the leaf is null. */
  getLeafEntry(): schema.SessionEntry | undefined {
    return this.state.leafId === null
      ? undefined
      : sessionState.entryOf(this.state, this.state.leafId);
  }
  /** The indexed entry with this id (the last one wins for duplicates). */
  getEntry(id: string): schema.SessionEntry | undefined {
    return sessionState.entryOf(this.state, id);
  }
  /** Direct children in file order. */
  getChildren(parentId: string): schema.SessionEntry[] {
    return sessionState.childrenOfId(this.state, parentId);
  }
  /** The current label of an entry. */
  getLabel(id: string): string | undefined {
    return builtinProjections.labelOfId(this.state, id);
  }
  /** Entries from the root to `fromId` (default: the leaf). */
  getBranch(fromId?: string): schema.SessionEntry[] {
    return builtinProjections.branchOf(this.state, fromId);
  }
  /** Compaction-aware context entries at the leaf. O(context) from the cached leaf path. */
  buildContextEntries(): schema.SessionEntry[] {
    // The leaf's path, not getBranch(): getBranch reads "" (a valid id) as "no start".
    return builtinProjections.contextEntriesOf(this.state);
  }
  /** Provenance-preserving context at the leaf. O(context) from the cached leaf path. */
  buildSessionProjection(): schema.SessionProjection {
    return builtinProjections.projectionOf(this.state);
  }
  /** What is sent to the model at the leaf. O(context), from the incrementally kept summary. */
  buildSessionContext(): schema.SessionContext {
    return builtinProjections.contextOf(this.state);
  }
  /** The latest session name, trimmed, or undefined. */
  getSessionName(): string | undefined {
    return builtinProjections.nameOf(this.state);
  }
  /** Number of distinct entry ids, without copying. */
  getEntryCount(): number {
    return this.state.log.distinct;
  }
  /** All entries in file order (a new array of read-only entries). */
  getEntries(): schema.SessionEntry[] {
    return sessionState.entriesOf(this.state);
  }
  /** The entry tree with labels. */
  getTree(): schema.SessionTreeNode[] {
    return builtinProjections.treeOf(this.state);
  }

  /** Adds a guard every later append must pass (else it throws and changes nothing). */
  addEntryValidator(validator: entryValidation.EntryValidator): () => void {
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
  /** Removes a projection added by name (from the options or {@link addProjection}); false if none. */
  removeProjection(name: string): boolean {
    // A built-in role (or its replacement) answers the pi API: it stays.
    if (builtinProjections.isBuiltinName(name) || !this.projections.some((p) => p.name === name))
      return false;
    this.projections = this.projections.filter((p) => p.name !== name);
    this.state = sessionState.withoutProjection(this.state, name);
    return true;
  }

  // --- writing (SPEC §5, §7.2–§7.4) ---------------------------------------------------------

  /**
   * Runs first in every public write; refuses once the store failed. When an older manager of
   * this process appended to our file since we read it (pi's old session's shutdown handler
   * after a resume), the session is reloaded: a leaf at the old tip follows entries continuing it.
   */
  private catchUp(): void {
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

  /** Whether an id was ever used in the current state (one function for the manager's life). */
  private readonly idTaken = (id: string): boolean => hasSeenId(this.state.log, id);

  /** The whole session so far, for a store's first write. */
  private readonly content = () => ({
    header: this.state.header as schema.SessionHeader,
    entries: sessionState.entriesOf(this.state),
  });

  /**
   * The one append path (SPEC §5.1), after `catchUp` (run earlier by writes that read the state).
   * The entry is serialised once: that line is what the store writes and what the log keeps, its
   * body decoded only when something reads it, so memory equals disk (SPEC §0.1 item 3) and the
   * caller keeps no reference into our state (W20). With validators (strict mode) the line is
   * decoded at once for them. `arg` spares the hot append a closure; a parent other than the leaf
   * (`null`: a new root) moves the leaf there first.
   */
  private append<E extends schema.SessionEntry, A = undefined>(
    make: (b: entryBuilders.EntryBase, arg: A) => E,
    arg?: A,
    parentOrLeaf?: string | null,
  ): string {
    this.catchUp();
    const parentId = parentOrLeaf === undefined ? this.state.leafId : parentOrLeaf;
    const id = generateEntryId(this.env, this.idTaken);
    const base = { id, parentId, timestamp: this.env.now().toISOString() };
    const made = make(base, arg as A);
    const line = JSON.stringify(made);
    const before = this.state;
    if (this.validators.length === 0) {
      const role =
        made.type === "message"
          ? (made as { message?: { role?: unknown } }).message?.role
          : undefined;
      const head = {
        id,
        parentId,
        type: made.type,
        role: typeof role === "string" ? role : undefined,
      };
      this.state = sessionState.foldLine(before, head, line);
    } else {
      const decoded = JSON.parse(line) as E;
      for (const validator of this.validators) {
        const rejection = validator(decoded);
        if (rejection !== undefined)
          throw new entryValidation.EntryRejectedError(decoded, rejection);
      }
      this.state = sessionState.foldEntry(before, decoded);
    }
    try {
      this.persist(line);
    } catch (error) {
      const after = this.state;
      this.state = before;
      if (this.whenRefused !== "fork" || !isForeignRefusal(error)) throw error;
      this.forkRefused(error);
      this.state = { ...after, header: this.state.header };
      try {
        this.persist(line);
      } catch (again) {
        this.state = { ...before, header: this.state.header };
        throw again;
      }
    }
    // Committed: only now may handlers see it (a leaf move made for this append first).
    this.emitLeafMoved(before.leafId, parentId);
    if (this.bus.wants("entryAppended")) {
      const entry = this.appended();
      this.bus.emit("entryAppended", () => ({ entry, leafId: id }));
    }
    return id;
  }

  /** The entry just appended, as callers get it. */
  private readonly appended = (): schema.SessionEntry =>
    lastEntry(this.state.log) as schema.SessionEntry;

  /** Hands the entry just appended to the sink: as its line when the sink takes lines. */
  private persist(line: string): void {
    if (this.sink.appendLine) this.sink.appendLine(line, this.appended, this.content);
    else this.sink.append(this.appended(), this.content);
  }

  /**
   * Continues in a new session forked from the current one, written at once (SPEC L3): another
   * process refused our append to this file. Every entry is copied as its line (no decoding),
   * `parentSession` names the refused file, the state is the same but for the header.
   */
  private forkRefused(refusal: Error): void {
    const from = this.sink.location;
    this.switchSession(
      "forked",
      () => {
        const header = jsonClone(this.newHeader(undefined, from));
        const log = this.state.log;
        const lines = [JSON.stringify(header)];
        for (let pos = 0; pos < log.length; pos++) lines.push(lineAt(log, pos));
        const sink = this.store.createFromLines
          ? this.store.createFromLines(header, lines)
          : this.store.create(header, sessionState.entriesOf(this.state), "now");
        this.replaceSink(sink);
        this.state = { ...this.state, header };
        this.loaded = { diagnostics: [] };
      },
      refusal,
    );
  }

  /** Appends a message of any role; returns the entry id. */
  appendMessage(message: schema.AgentMessage): string {
    return this.append(entryBuilders.messageEntry, message);
  }
  /** Appends a thinking level change. */
  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.append((b) => ({ type: "thinking_level_change", ...b, thinkingLevel }));
  }
  /** Appends a model change. */
  appendModelChange(provider: string, modelId: string): string {
    return this.append((b) => ({ type: "model_change", ...b, provider, modelId }));
  }
  /** [R1.6] Appends model usage outside the conversation (`note` only when non-empty). */
  appendUsage(
    kind: string,
    provider: string,
    model: string,
    usage: schema.Usage,
    note?: string,
  ): schema.UsageEntry {
    const fields = { kind, provider, model, usage, note: note || undefined };
    const id = this.append((b) => ({ type: "usage", ...b, ...fields }));
    return this.getEntry(id) as schema.UsageEntry;
  }
  /** Appends a compaction (null `firstKeptEntryId`: keep none) with the system checkpoint. */
  appendCompaction<D = unknown>(
    summary: string,
    firstKeptEntryId: string | null,
    tokensBefore: number,
    details?: D,
    fromHook?: boolean,
    usage?: schema.Usage,
  ): string {
    return this.append((b) => ({
      type: "compaction",
      ...b,
      summary,
      firstKeptEntryId: firstKeptEntryId ?? b.id,
      tokensBefore,
      details,
      usage,
      fromHook,
      // The checkpoint of the context this compaction summarises (`make` runs before the fold).
      systemMessage: systemCheckpoint(
        builtinProjections.systemMessagesOf(this.state),
        Date.parse(b.timestamp),
      ),
    }));
  }
  /** Appends extension state that never reaches the model (payload keys first, as pi's). */
  appendCustomEntry(customType: string, data?: unknown): string {
    return this.append((b) => ({ type: "custom", customType, data, ...b }));
  }
  /** Appends the session name (CR/LF runs become a space, then trimmed). */
  appendSessionInfo(name: string): string {
    const clean = sanitizeSessionName(name);
    return this.append((b) => ({ type: "session_info", ...b, name: clean }));
  }
  /** Appends extension content that reaches the model (payload keys first, as pi's). */
  appendCustomMessageEntry<D = unknown>(
    customType: string,
    content: string | (schema.TextContent | schema.ImageContent)[],
    display: boolean,
    details?: D,
  ): string {
    const fields = { customType, content, display, details };
    return this.append((b) => ({ type: "custom_message", ...fields, ...b }));
  }
  /** Sets (truthy) or clears (undefined, "", null: kept as given) an existing entry's label. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    this.catchUp();
    if (!sessionState.entryOf(this.state, targetId)) throw notFound(targetId);
    return this.append((b) => ({ type: "label", ...b, targetId, label }));
  }
  /** [R1.6] Appends a branch-local edit of an earlier entry's context contribution (SPEC §5.4). */
  appendContextEdit(targetId: string, replacement: schema.ContextEditEntry["replacement"]): string {
    this.catchUp();
    const stored = entryBuilders.contextEditReplacement(replacement, targetId, this.state);
    return this.append((b) => ({ type: "context_edit", ...b, targetId, replacement: stored }));
  }

  /** Moves the leaf to an existing entry. Writes nothing. */
  branch(branchFromId: string): void {
    if (!sessionState.entryOf(this.state, branchFromId)) throw notFound(branchFromId);
    this.moveLeaf(branchFromId);
  }
  /** Moves the leaf before the first entry; the next append starts a new root. */
  resetLeaf(): void {
    this.moveLeaf(null);
  }
  /** Moves the leaf and appends a summary; a failed append puts the leaf back (W19). */
  branchWithSummary(
    branchFromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
    usage?: schema.Usage,
  ): string {
    this.catchUp();
    if (branchFromId !== null && !sessionState.entryOf(this.state, branchFromId))
      throw notFound(branchFromId);
    const fromId = this.state.leafId ?? "root";
    const make = (b: entryBuilders.EntryBase) =>
      ({ type: "branch_summary", ...b, fromId, summary, details, usage, fromHook }) as const;
    return this.append(make, undefined, branchFromId);
  }

  private moveLeaf(to: string | null): void {
    const from = this.state.leafId;
    this.state = sessionState.withLeaf(this.state, to);
    this.emitLeafMoved(from, to);
  }

  private emitLeafMoved(from: string | null, to: string | null): void {
    if (from !== to) this.bus.emit("leafMoved", () => ({ from, to }));
  }

  /** Replaces the session, then emits `sessionSwitched` and an opened file's `diagnostics`. */
  private switchSession(
    reason: sessionEvents.SessionSwitchReason,
    replace: () => void,
    refusal?: Error,
  ): void {
    const previous = { previousSessionId: this.getSessionId(), previousFile: this.sink.location };
    replace();
    const sessionId = this.getSessionId();
    const file = this.sink.location;
    const why = refusal ? { refusal } : {};
    this.bus.emit("sessionSwitched", () => ({ reason, sessionId, file, ...previous, ...why }));
    if (reason !== "open" || !this.bus.wants("diagnostics")) return;
    const diagnostics = this.getLoadDiagnostics(); // O(n): only when someone listens
    if (diagnostics.length > 0)
      this.bus.emit("diagnostics", () => ({ sessionId, file, diagnostics }));
  }
}

/** The read-only view of a manager the reference hands to extensions (same member list). */
export type ReadonlySessionManager = Pick<
  SessionManager,
  | "getCwd"
  | "getSessionDir"
  | "getSessionId"
  | "getSessionFile"
  | "getLeafId"
  | "getLeafEntry"
  | "getEntry"
  | "getLabel"
  | "getBranch"
  | "buildContextEntries"
  | "buildSessionProjection"
  | "getHeader"
  | "getEntries"
  | "getTree"
  | "getSessionName"
>;
