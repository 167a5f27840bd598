import { dirname, resolve } from "node:path";
import { SessionBus } from "./bus/session-bus.js";
import type { SessionEventBus, SessionSwitchReason } from "./bus/session-events.js";
import { type SessionEnv, systemEnv } from "./env/env.js";
import { assertValidSessionId, generateEntryId } from "./env/ids.js";
import { resolveCwd } from "./env/paths.js";
import type { LineMap } from "./format/line-map.js";
import { splitRecords } from "./format/load-records.js";
import { loadText } from "./format/load-text.js";
import { branchedEntries } from "./manager/branched-session.js";
import * as catalog from "./manager/catalog.js";
import * as build from "./manager/entry-builders.js";
import {
  EntryRejectedError,
  type EntryValidator,
  schemaValidator,
} from "./manager/entry-validation.js";
import { systemCheckpoint } from "./manager/system-checkpoint.js";
import * as q from "./projections/builtins.js";
import { contextEntriesOfPath, projectionOfPath } from "./projections/context.js";
import { sanitizeSessionName } from "./projections/session-name.js";
import type * as T from "./schema/types.js";
import type { SessionManagerOptions } from "./session-manager-types.js";
import { type LoadDiagnostic, structuralDiagnostics } from "./state/diagnostics.js";
import { hasSeenId, lastEntry } from "./state/entry-log.js";
import type { Projection } from "./state/projection.js";
import * as s from "./state/session-state.js";
import { findMostRecentSession, readHeader } from "./store/discovery.js";
import { fileStore } from "./store/file-store.js";
import { memorySink, memoryStore } from "./store/memory-store.js";
import { defaultSessionDirPath, ensureDir, getDefaultSessionDir } from "./store/paths.js";
import { resolveSessionDir, samePath } from "./store/session-files.js";
import {
  type SessionSink,
  type SessionStore,
  SessionStoreFailedError,
  type StoredSession,
} from "./store/session-store.js";

export type { SessionManagerOptions } from "./session-manager-types.js";

const notFound = (id: string) => new build.EntryNotFoundError(id);
/** A sink's flush as a value: undefined once durable, or the failure (never rejects). */
const outcomeOf = (sink: SessionSink): Promise<Error | undefined> =>
  sink.flush().then(
    () => undefined,
    (e: Error) => e,
  );
const copy = <V>(value: V): V => JSON.parse(JSON.stringify(value)) as V;
type SessionRef = { readonly sessionId: string; readonly file: string | undefined };

/**
 * A pi session: an append-only tree of entries with a movable leaf, drop-in compatible with
 * the reference `SessionManager` (SPEC §4–§9). Every change folds one entry into a new
 * immutable `SessionState` at once, then hands it to the session's sink in its
 * `SessionStore` (memory, JSONL files, or an asynchronous store); `getState()` hands out the
 * snapshots. The reference's static discovery API (`list`, `findById`, …) is here too.
 */
export class SessionManager {
  static readonly findById = catalog.findById;
  static readonly list = catalog.list;
  static readonly listAll = catalog.listAll;
  static readonly deleteSession = catalog.deleteSession;

  private state: s.SessionState;
  private readonly env: SessionEnv;
  private readonly durability: SessionManagerOptions["durability"];
  private projections: readonly Projection<unknown>[];
  private readonly cwd: string;
  private store: SessionStore = memoryStore;
  private sink: SessionSink = memorySink;
  private loadDiagnostics: LoadDiagnostic[] = [];
  /** The outcome of the queued writes of sessions switched away from, for `flush()`. */
  private readonly retired = new Set<Promise<Error | undefined>>();
  /** File line of each loaded entry (by position), when the session came from text. */
  private entryLines: LineMap | undefined;
  private readonly bus = new SessionBus();
  /** Replaced, never mutated, so a validator may remove itself while validators run. */
  private validators: readonly EntryValidator[] = [];
  /**
   * The typed event bus: `entryAppended`, `leafMoved`, `sessionSwitched`, `diagnostics`,
   * `handlerError` (see {@link SessionEventBus}). Events fire after the change is committed.
   */
  readonly events: SessionEventBus = this.bus;

  protected constructor(cwd: string, options: SessionManagerOptions, store?: SessionStore) {
    this.durability = options.durability;
    this.env = options.env ?? systemEnv;
    this.projections = options.projections ?? [];
    this.bus.reportError = options.onHandlerError;
    this.cwd = resolveCwd(cwd);
    this.state = q.initialState(null, this.projections);
    if (store) this.store = store;
    if (options.strict) this.validators = [schemaValidator];
  }

  // --- factories (SPEC §4, §6, §10) ------------------------------------------------------

  /**
   * A session that never touches the filesystem. With `entries`, a header among them is
   * adopted (and `options` ignored); the entries are copied, migrated and replayed, and the
   * leaf is the last one (SPEC §6.6, W20).
   */
  static inMemory(
    cwd: string = process.cwd(),
    options?: SessionManagerOptions,
    entries?: T.FileEntry[],
  ): SessionManager {
    const sm = new SessionManager(cwd || process.cwd(), options ?? {});
    if (!entries || entries.length === 0) sm.newSession(options);
    else sm.adoptRecords(copy(entries) as unknown as Record<string, unknown>[], options);
    return sm;
  }

  /**
   * A session loaded from JSONL text, in memory (our addition; a file opens the same way).
   * The cwd defaults to the header's. Malformed lines are reported by
   * {@link getLoadDiagnostics} with their line numbers; throws `InvalidSessionError` when the
   * text has no valid header first.
   */
  static fromJsonl(text: string, cwd?: string, options?: SessionManagerOptions): SessionManager {
    const loaded = loadText(text, options?.env ?? systemEnv);
    const headerCwd = loaded.header?.cwd;
    const sm = new SessionManager(
      cwd || (typeof headerCwd === "string" && headerCwd) || process.cwd(),
      options ?? {},
    );
    sm.adopt(loaded, sm.sink);
    return sm;
  }

  /** A new session in any store (a database, a custom folder layout). */
  static withStore(
    store: SessionStore,
    cwd: string,
    options?: SessionManagerOptions,
  ): SessionManager {
    const sm = new SessionManager(cwd, options ?? {}, store);
    sm.newSession(options);
    return sm;
  }

  /** A new persisted session in `sessionDir` (default: the cwd's directory, created). */
  static create(cwd: string, sessionDir?: string, options?: SessionManagerOptions): SessionManager {
    const sm = new SessionManager(cwd, options ?? {});
    sm.useDir(sessionDir ? resolveSessionDir(sessionDir) : getDefaultSessionDir(sm.cwd));
    sm.newSession(options);
    return sm;
  }

  /**
   * Opens a session file (SPEC §6.5). The cwd is `cwdOverride`, else the header's, else the
   * process cwd; the session directory is `sessionDir`, else the file's folder. Throws
   * `Session file is not a valid pi session: <path>` for a file that is not one (unchanged).
   */
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
    const sm = new SessionManager(cwd, options ?? {});
    sm.useDir(sessionDir ? resolveSessionDir(sessionDir) : dirname(file));
    sm.openLocation(file);
    return sm;
  }

  /**
   * The most recent session of `cwd` in the directory, or a new one. [Fix] W17: sessions of
   * other working directories are filtered out in the default directory too.
   */
  static continueRecent(
    cwd: string,
    sessionDir?: string,
    options?: SessionManagerOptions,
  ): SessionManager {
    const sm = new SessionManager(cwd, options ?? {});
    const dir = sessionDir ? resolveSessionDir(sessionDir) : getDefaultSessionDir(sm.cwd);
    sm.useDir(dir);
    const recent = findMostRecentSession(dir, sm.cwd, catalog.isDefaultDir(dir, sm.cwd));
    if (recent) sm.openLocation(recent);
    else sm.newSession(options);
    return sm;
  }

  /**
   * Copies a whole session (every entry, labels and unknown types included) into a new file
   * for `targetCwd`, written at once. The source is only read (W13) and migrated in memory
   * first (W12); `options.id` is validated, `options.parentSession` ignored.
   */
  static forkFrom(
    sourcePath: string,
    targetCwd: string,
    sessionDir?: string,
    options?: SessionManagerOptions,
  ): SessionManager {
    const source = resolve(sourcePath);
    const sm = new SessionManager(targetCwd, options ?? {});
    const dir = sessionDir ? resolveSessionDir(sessionDir) : getDefaultSessionDir(sm.cwd);
    const { entries } = fileStore(dir, { env: sm.env }).read(source);
    sm.useDir(dir);
    const header = copy(sm.newHeader({ id: options?.id }, source));
    sm.adopt({ header, entries, diagnostics: [] }, sm.store.create(header, entries.slice(), "now"));
    return sm;
  }

  // --- switching sessions -------------------------------------------------------------------

  /** Switches to another session file by the load rules of `open`, keeping the current cwd. */
  setSessionFile(sessionFile: string): void {
    const previous = this.sessionRef();
    if (!this.store.persisted) this.useDir(dirname(resolve(sessionFile)));
    this.openLocation(resolve(sessionFile));
    this.emitSwitched("open", previous);
  }

  /**
   * Starts a new empty session; returns its file path, or undefined in memory. A persisted
   * session's file is named after the header and written at the first conversation message
   * (SPEC §6.2); the previous file is left alone.
   */
  newSession(options?: T.NewSessionOptions): string | undefined {
    const previous = this.sessionRef();
    const header = copy(this.newHeader(options));
    this.adopt(
      { header, entries: [], diagnostics: [] },
      this.store.create(header, [], "conversation"),
    );
    this.emitSwitched("new", previous);
    return this.sink.location;
  }

  /**
   * Replaces the session by a new one holding only the path to `leafId`, labels recreated
   * (SPEC §9). Persisted: written at once when the path holds a conversation, else pending.
   * [Fix] W24: `parentSession` names the previous file only if that file exists. Returns the
   * new file path, or undefined in memory.
   */
  createBranchedSession(leafId: string): string | undefined {
    const path = q.branchOf(this.state, leafId);
    if (path.length === 0) throw notFound(leafId);
    const previous = this.sessionRef();
    const entries = branchedEntries(path, q.labelMapOf(this.state), this.env);
    const parent = this.sink.written ? this.sink.location : undefined;
    const c = copy({ header: this.newHeader(undefined, parent), entries });
    // The store writes (when due) before the switch: if it fails, the manager is still on
    // the old session, as after any failed append.
    // The store gets its own array: the adopted one becomes the log and grows with later
    // appends, which a store that writes later (queued) must not see in its first write.
    const sink = this.store.create(c.header, c.entries.slice(), "conversation");
    this.adopt({ header: c.header, entries: c.entries, diagnostics: [] }, sink);
    this.emitSwitched("branched", previous);
    return sink.location;
  }

  /**
   * Releases the session file (fd and writer lock) so another process may write it. The
   * manager stays usable: the next append takes the lock again and checks that nobody wrote
   * in the meantime (else `SessionConflictError`). Closing does not make a manager newer: one
   * that a newer manager of this process took the file over from stays refused.
   */
  close(): void {
    this.sink.release();
  }

  /**
   * Resolves once every append so far is durable in the store (at once for memory and JSONL
   * files, which write before an append returns); rejects with a queued write's failure.
   */
  async flush(): Promise<void> {
    const pending = [...this.retired, outcomeOf(this.sink)];
    this.retired.clear();
    const failure = (await Promise.all(pending)).find((e) => e !== undefined);
    if (failure) throw failure;
  }

  /** Makes this manager file-backed in `dir` (created with mode 0700 if missing). */
  private useDir(dir: string): void {
    ensureDir(dir);
    this.store = fileStore(dir, { durability: this.durability, env: this.env });
  }

  /** Replaces the session by the one at `location` (missing: pending; empty: header written). */
  private openLocation(location: string): void {
    const opened = this.store.open(location, () => this.newHeader());
    this.adopt(opened, opened.sink);
  }

  /** Replaces the session: the old sink is closed, the new content replayed. */
  private adopt(session: StoredSession, sink: SessionSink): void {
    if (sink !== this.sink) {
      // Writes the old session's sink still has queued count for the next flush(); one that
      // succeeds drops out at once, so a manager that never flushes keeps nothing.
      const outcome = outcomeOf(this.sink);
      this.retired.add(outcome);
      void outcome.then((e) => e === undefined && this.retired.delete(outcome));
      this.sink.close();
    }
    this.sink = sink;
    this.state = q.replayState(session.header, session.entries, this.projections, true);
    this.loadDiagnostics = session.diagnostics;
    this.entryLines = session.entryLines;
  }

  /** Replaces the state by migrated records (header adopted, or a new one from options). */
  protected adoptRecords(records: Record<string, unknown>[], options?: T.NewSessionOptions): void {
    // Headerless entries join a fresh v3 header first, so they are not taken for v1 records.
    const withHeader = records.some((r) => r.type === "session")
      ? records
      : [copy(this.newHeader(options)) as unknown as Record<string, unknown>, ...records];
    const split = splitRecords(withHeader, this.env);
    this.adopt({ ...split, entryLines: undefined }, this.sink);
  }

  /** Builds a fresh header (SPEC §4 newSession) after validating a custom id. */
  private newHeader(
    options?: T.NewSessionOptions,
    parentSession = options?.parentSession,
  ): T.SessionHeader {
    if (options?.id !== undefined) assertValidSessionId(options.id);
    return {
      type: "session",
      version: 3,
      id: options?.id ?? this.env.uuidv7(),
      timestamp: this.env.now().toISOString(),
      cwd: this.cwd,
      parentSession,
    } as T.SessionHeader;
  }

  // --- reading -------------------------------------------------------------------------------

  /** Whether the session is backed by a store that persists (true before the file exists). */
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
    return this.store.persisted && samePath(this.store.dir, defaultSessionDirPath(this.cwd));
  }
  /** The session id from the header. */
  getSessionId(): string {
    return this.state.header?.id ?? "";
  }
  /** The session file path (undefined in memory). */
  getSessionFile(): string | undefined {
    return this.sink.location;
  }
  /** The header record, or null. Read-only. */
  getHeader(): T.SessionHeader | null {
    return this.state.header;
  }
  /** The current immutable snapshot of the whole session. */
  getState(): s.SessionState {
    return this.state;
  }
  /** The state of a projection registered through `options.projections`, by name. */
  getProjectionState<S = unknown>(name: string): S | undefined {
    return s.projectionState(this.state, name) as S | undefined;
  }
  /**
   * Problems found when the session was loaded (malformed lines, entries without ids,
   * migration notes) plus structural ones (duplicate ids, dangling parents, cycles).
   */
  getLoadDiagnostics(): LoadDiagnostic[] {
    const lineOf = (pos: number) => this.entryLines?.lineOf(pos);
    return [...this.loadDiagnostics, ...structuralDiagnostics(this.state.log, lineOf)];
  }
  /**
   * The 1-based file line of the entry at `position` (file order, as `FoldContext.position`),
   * when the session was loaded from text and the entry was loaded, not appended since.
   */
  getEntryLineNumber(position: number): number | undefined {
    return this.entryLines?.lineOf(position);
  }
  /** The leaf id, or null. */
  getLeafId(): string | null {
    return this.state.leafId;
  }
  /** The leaf entry, or undefined when the leaf is null. */
  getLeafEntry(): T.SessionEntry | undefined {
    const leaf = this.state.leafId;
    return leaf === null ? undefined : s.entryOf(this.state, leaf);
  }
  /** The indexed entry with this id (the last one wins for duplicates). */
  getEntry(id: string): T.SessionEntry | undefined {
    return s.entryOf(this.state, id);
  }
  /** Direct children in file order. */
  getChildren(parentId: string): T.SessionEntry[] {
    return s.childrenOfId(this.state, parentId);
  }
  /** The current label of an entry. */
  getLabel(id: string): string | undefined {
    return q.labelOfId(this.state, id);
  }
  /** Entries from the root to `fromId` (default: the leaf). */
  getBranch(fromId?: string): T.SessionEntry[] {
    return q.branchOf(this.state, fromId);
  }
  /** Compaction-aware context entries at the leaf. O(context) from the cached leaf path. */
  buildContextEntries(): T.SessionEntry[] {
    // The leaf's path, not getBranch(): getBranch treats a falsy id ("" is a valid one) as
    // "no start", while context must follow the leaf whatever its id.
    return contextEntriesOfPath(q.leafPath(this.state));
  }
  /** Provenance-preserving context at the leaf. */
  buildSessionProjection(): T.SessionProjection {
    return projectionOfPath(q.leafPath(this.state));
  }
  /** What is sent to the model at the leaf. O(context), from the incrementally kept summary. */
  buildSessionContext(): T.SessionContext {
    return q.contextOf(this.state);
  }
  /** The latest session name, trimmed, or undefined. */
  getSessionName(): string | undefined {
    return q.nameOf(this.state);
  }
  /** Number of distinct entry ids, without copying. */
  getEntryCount(): number {
    return this.state.log.distinct;
  }
  /** All entries in file order (a new array of read-only entries). */
  getEntries(): T.SessionEntry[] {
    return s.entriesOf(this.state);
  }
  /** The entry tree with labels. */
  getTree(): T.SessionTreeNode[] {
    return q.treeOf(this.state);
  }

  // --- extending ----------------------------------------------------------------------------

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
  /**
   * Adds a projection: it is replayed over the current log once (O(n)), folded on every later
   * append and replayed whenever another session is loaded. Its state is read with
   * `getProjectionState(name)`. Throws when a projection with that name is already added.
   */
  addProjection(projection: Projection<unknown>): void {
    const next = s.withProjection(this.state, projection);
    if (!next) throw new Error(`Projection "${projection.name}" is already registered`);
    this.projections = [...this.projections, projection];
    this.state = next;
  }
  /** Removes a projection added by name (from the options or {@link addProjection}); false if none. */
  removeProjection(name: string): boolean {
    // A built-in role (or its replacement) answers the pi API: it stays.
    if (q.isBuiltinName(name) || !this.projections.some((p) => p.name === name)) return false;
    this.projections = this.projections.filter((p) => p.name !== name);
    this.state = s.withoutProjection(this.state, name);
    return true;
  }

  // --- writing (SPEC §5, §7.2–§7.4) ---------------------------------------------------------

  /**
   * Runs first in every public write, before it reads the state. Refuses when the store
   * failed to persist an earlier append. When an older manager of this process appended to
   * our file since we read it — pi's old session writing from its shutdown handler after a
   * resume opened the same file again — the session is reloaded so the write continues from
   * those entries: W7 allows ingesting a foreign writer's complete lines, never a silent fork,
   * and within one process those lines are our own writer's. A leaf at the old tip follows
   * the new entries when they continue it; any other leaf (including none) stays. O(1) while
   * this manager holds the file.
   */
  private catchUp(): void {
    const sink = this.sink;
    if (sink.failure) throw new SessionStoreFailedError(sink.failure);
    if (!sink.changedElsewhere() || sink.location === undefined) return;
    const previous = this.sessionRef();
    const leaf = this.state.leafId;
    const atTip = leaf !== null && leaf === lastEntry(this.state.log)?.id;
    this.openLocation(sink.location);
    const tip = this.state.leafId;
    const follows = atTip && tip !== null && q.branchOf(this.state, tip).some((e) => e.id === leaf);
    if (!follows && (leaf === null || s.entryOf(this.state, leaf))) {
      this.state = s.withLeaf(this.state, leaf);
    }
    this.emitSwitched("reload", previous);
  }

  /** Whether an id was ever used in the current state (one function for the manager's life). */
  private readonly idTaken = (id: string): boolean => hasSeenId(this.state.log, id);

  /** The whole session so far, for a store's first write. */
  private readonly content = () => ({
    header: this.state.header as T.SessionHeader,
    entries: s.entriesOf(this.state),
  });

  /**
   * The common append (SPEC §5.1): build the entry as a child of the leaf, store the JSON
   * value of its line, let the guards see it, fold it, hand it to the sink; if the sink
   * throws, the previous state is restored untouched and the error rethrown. `arg` is passed
   * on to `make`, so a builder of one argument needs no closure (the hot appends: messages).
   */
  private append<E extends T.SessionEntry, A = undefined>(
    make: (b: build.EntryBase, arg: A) => E,
    arg?: A,
    moved?: { readonly from: string | null },
  ): E {
    const base = {
      id: generateEntryId(this.env, this.idTaken),
      parentId: this.state.leafId,
      timestamp: this.env.now().toISOString(),
    };
    const stored = build.storedForm(make(base, arg as A));
    for (const validator of this.validators) {
      const rejection = validator(stored);
      if (rejection !== undefined) throw new EntryRejectedError(stored, rejection);
    }
    const before = this.state;
    this.state = s.foldEntry(before, stored);
    try {
      this.sink.append(stored, this.content);
    } catch (error) {
      this.state = before;
      throw error;
    }
    // Committed: only now may handlers see it (a leaf move made for this append first).
    if (moved) this.emitLeafMoved(moved.from, base.parentId);
    this.bus.emit("entryAppended", () => ({ entry: stored, leafId: stored.id }));
    return stored;
  }

  /** Appends a message of any role; returns the entry id. */
  appendMessage(message: T.AgentMessage): string {
    this.catchUp();
    return this.append(build.messageEntry, message).id;
  }
  /** Appends a thinking level change. */
  appendThinkingLevelChange(thinkingLevel: string): string {
    this.catchUp();
    return this.append(build.thinkingLevelEntry, thinkingLevel).id;
  }
  /** Appends a model change. */
  appendModelChange(provider: string, modelId: string): string {
    this.catchUp();
    return this.append((b) => build.modelChangeEntry(b, provider, modelId)).id;
  }
  /** [R1.6] Appends model usage outside the conversation; returns the whole entry. */
  appendUsage(
    kind: string,
    provider: string,
    model: string,
    usage: T.Usage,
    note?: string,
  ): T.UsageEntry {
    this.catchUp();
    return this.append((b) => build.usageEntry(b, kind, provider, model, usage, note));
  }
  /**
   * Appends a compaction. A null/undefined `firstKeptEntryId` means "keep none" (the entry's
   * own id). Records the system-prompt checkpoint when the context has system messages.
   */
  appendCompaction<D = unknown>(
    summary: string,
    firstKeptEntryId: string | null,
    tokensBefore: number,
    details?: D,
    fromHook?: boolean,
    usage?: T.Usage,
  ): string {
    this.catchUp();
    const systemMessages = q.systemMessagesOf(this.state);
    return this.append((b) =>
      build.compactionEntry(b, {
        summary,
        firstKeptEntryId: firstKeptEntryId ?? b.id,
        tokensBefore,
        details,
        usage,
        fromHook,
        systemMessage: systemCheckpoint(systemMessages, new Date(b.timestamp).getTime()),
      }),
    ).id;
  }
  /** Appends extension state that never reaches the model. */
  appendCustomEntry(customType: string, data?: unknown): string {
    this.catchUp();
    return this.append((b) => build.customEntry(b, customType, data)).id;
  }
  /** Appends the session name (CR/LF runs become a space, then trimmed). */
  appendSessionInfo(name: string): string {
    this.catchUp();
    return this.append(build.sessionInfoEntry, sanitizeSessionName(name)).id;
  }
  /** Appends extension content that reaches the model. */
  appendCustomMessageEntry<D = unknown>(
    customType: string,
    content: string | (T.TextContent | T.ImageContent)[],
    display: boolean,
    details?: D,
  ): string {
    this.catchUp();
    return this.append((b) => build.customMessageEntry(b, customType, content, display, details))
      .id;
  }
  /** Sets (truthy) or clears (undefined, "", null) the label of an existing entry. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    this.catchUp();
    if (!s.entryOf(this.state, targetId)) throw notFound(targetId);
    return this.append((b) => build.labelEntry(b, targetId, label)).id;
  }
  /** [R1.6] Appends a branch-local edit of an earlier entry's context contribution (SPEC §5.4). */
  appendContextEdit(targetId: string, replacement: T.ContextEditEntry["replacement"]): string {
    this.catchUp();
    const stored = build.contextEditReplacement(
      replacement,
      targetId,
      (id) => s.entryOf(this.state, id),
      () => q.branchOf(this.state),
    );
    return this.append((b) => build.contextEditEntry(b, targetId, stored)).id;
  }

  /** Moves the leaf to an existing entry. Writes nothing. */
  branch(branchFromId: string): void {
    if (!s.entryOf(this.state, branchFromId)) throw notFound(branchFromId);
    this.moveLeaf(branchFromId);
  }
  /** Moves the leaf before the first entry; the next append starts a new root. */
  resetLeaf(): void {
    this.moveLeaf(null);
  }
  /**
   * Moves the leaf to `branchFromId` (null: a new root) and appends a summary of the path
   * left behind. If the append fails, the leaf is back where it was before the call (W19).
   */
  branchWithSummary(
    branchFromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
    usage?: T.Usage,
  ): string {
    this.catchUp();
    if (branchFromId !== null && !s.entryOf(this.state, branchFromId)) throw notFound(branchFromId);
    const before = this.state;
    const fromId = before.leafId ?? "root";
    this.state = s.withLeaf(before, branchFromId);
    try {
      return this.append(
        (b) => build.branchSummaryEntry(b, fromId, summary, details, usage, fromHook),
        undefined,
        { from: before.leafId },
      ).id;
    } catch (error) {
      this.state = before;
      throw error;
    }
  }

  // --- events -------------------------------------------------------------------------------

  private moveLeaf(to: string | null): void {
    const from = this.state.leafId;
    this.state = s.withLeaf(this.state, to);
    this.emitLeafMoved(from, to);
  }

  private emitLeafMoved(from: string | null, to: string | null): void {
    if (from !== to) this.bus.emit("leafMoved", () => ({ from, to }));
  }

  private sessionRef(): SessionRef {
    return { sessionId: this.getSessionId(), file: this.sink.location };
  }

  /**
   * Emits `sessionSwitched` once a whole session was replaced, then `diagnostics` when a
   * loaded file has load problems (computed only if someone listens: it costs O(n)).
   */
  private emitSwitched(reason: SessionSwitchReason, previous: SessionRef): void {
    const sessionId = this.getSessionId();
    const file = this.sink.location;
    this.bus.emit("sessionSwitched", () => ({
      reason,
      sessionId,
      file,
      previousSessionId: previous.sessionId,
      previousFile: previous.file,
    }));
    if (reason !== "open" || !this.bus.wants("diagnostics")) return;
    const diagnostics = this.getLoadDiagnostics();
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
