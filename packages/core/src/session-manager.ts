import { resolve } from "node:path";
import type * as sessionEvents from "./bus/session-events.js";
import { systemEnv } from "./env/env.js";
import { jsonClone } from "./format/json-clone.js";
import { loadText } from "./format/load-text.js";
import { appendEntry } from "./manager/append-path.js";
import * as appends from "./manager/entry-appends.js";
import * as entryBuilders from "./manager/entry-builders.js";
import * as entryValidation from "./manager/entry-validation.js";
import { ManagedSession } from "./manager/managed-session.js";
import * as sessionListing from "./manager/session-listing.js";
import type { SessionManagerOptions } from "./manager/session-manager-options.js";
import * as sessionOpening from "./manager/session-opening.js";
import * as builtinProjections from "./projections/builtins.js";
import type { AnyEntryTypeDefinition, DefinedEntryFields } from "./schema/entry-type-registry.js";
import type * as schema from "./schema/types.js";
import type { LoadDiagnostic } from "./state/diagnostics.js";
import type { Projection } from "./state/projection.js";
import * as sessionState from "./state/session-state.js";
import { type DeleteResult, deleteSessionFile } from "./store/delete.js";
import type { SessionListProgress } from "./store/listing.js";
import * as paths from "./store/paths.js";
import type { SessionStore } from "./store/session-store.js";
import { samePath } from "./store/store-helpers.js";

type Progress = SessionListProgress;

/**
 * A pi session, drop-in for the reference `SessionManager` (SPEC §4–§10, statics included).
 * Every change folds one entry into a new immutable `SessionState` at once, then hands it to
 * the sink of its `SessionStore` (memory, JSONL files, or an asynchronous store). This class is
 * the reference's API, each member a few lines over the parts in `manager/`: the mutable
 * session (`managed-session.ts`), the append path (`append-path.ts`) and typed appends
 * (`entry-appends.ts`), listing (`session-listing.ts`) and opening (`session-opening.ts`).
 * Factories make instances of the class they are called on; discovery only reads (W13).
 */
export class SessionManager {
  /** The current state, store, sink and bus (every switch of session goes through it). */
  private readonly session: ManagedSession;
  /** The typed event bus ({@link sessionEvents.SessionEventBus}); events fire after the change is committed. */
  readonly events: sessionEvents.SessionEventBus;

  protected constructor(cwd: string, options: SessionManagerOptions = {}, store?: SessionStore) {
    this.session = new ManagedSession(cwd, options, store);
    this.events = this.session.bus;
    if (options.strict) this.session.validators = [entryValidation.schemaValidator];
  }

  /** In memory; `entries` are copied (W20), migrated, replayed, their header adopted (§6.6). */
  static inMemory(
    cwd?: string,
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
    sm.session.adopt(loaded, sm.session.sink);
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
    sm.session.useDir(sessionListing.dirFor(sessionDir, sm.session.cwd)[0]);
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
    const sm = new this(cwdOverride ?? sessionOpening.headerCwdOf(file), options);
    sessionOpening.openFileIn(sm.session, file, sessionDir);
    return sm;
  }
  /** The most recent session of `cwd`, or a new one. [Fix] W17: other cwds are skipped. */
  static continueRecent(
    cwd: string,
    sessionDir?: string,
    options?: SessionManagerOptions,
  ): SessionManager {
    const sm = new this(cwd, options);
    sessionOpening.openRecentIn(sm.session, sessionDir, options);
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
    const sm = new this(targetCwd, options);
    sessionOpening.forkInto(sm.session, resolve(sourcePath), sessionDir, options?.id);
    return sm;
  }
  /** The path of the session with exactly this id among `cwd`'s (headers only), or undefined. */
  static findById(cwd: string, id: string, sessionDir?: string): string | undefined {
    return sessionListing.findSessionPath(cwd, id, sessionDir);
  }
  /** The sessions of `cwd`, newest activity first (SPEC §10.5); unchanged files are cached. */
  static list(
    cwd: string,
    sessionDir?: string,
    onProgress?: Progress,
    signal?: AbortSignal,
  ): Promise<schema.SessionInfo[]> {
    return sessionListing.listCwdSessions(cwd, sessionDir, onProgress, signal);
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
    return sessionListing.listEverySession(first, second, third);
  }
  /** Deletes a session file: to the trash when a `trash` command exists, else unlinked (§1.6). */
  static deleteSession(path: string): DeleteResult {
    return deleteSessionFile(resolve(path));
  }

  /** Switches to another session file by the load rules of `open`, keeping the current cwd. */
  setSessionFile(sessionFile: string): void {
    this.session.openFile(resolve(sessionFile));
  }
  /** Starts a new session, written at its first conversation message (SPEC §6.2). */
  newSession(options?: schema.NewSessionOptions): string | undefined {
    this.session.startNew(options);
    return this.session.sink.location;
  }
  /**
   * A new session of the path to `leafId`, labels recreated (SPEC §9). [Fix] W24:
   * `parentSession` names the previous file only if that file exists.
   */
  createBranchedSession(leafId: string): string | undefined {
    const path = builtinProjections.branchOf(this.session.state, leafId);
    if (path.length === 0) throw new entryBuilders.EntryNotFoundError(leafId);
    this.session.startBranched(path);
    return this.session.sink.location;
  }
  /**
   * Our addition: releases the fd and lock. The next append takes the lock again after checking
   * nobody wrote meanwhile (else `SessionConflictError`); a manager taken over stays refused.
   */
  close(): void {
    this.session.sink.release();
  }
  /** Our addition: resolves once every append so far is durable; rejects with a failure. */
  flush(): Promise<void> {
    return this.session.flush();
  }
  /** Replaces the state by migrated records (header adopted, or a new one from options). */
  protected adoptRecords(
    records: Record<string, unknown>[],
    options?: schema.NewSessionOptions,
  ): void {
    this.session.adoptRecords(records, options);
  }

  /** Whether the store persists (true before the file exists). */
  isPersisted(): boolean {
    return this.session.store.persisted;
  }
  /** The resolved working directory. */
  getCwd(): string {
    return this.session.cwd;
  }
  /** The session directory (`""` in memory). */
  getSessionDir(): string {
    return this.session.store.dir;
  }
  /** Whether the session directory is the default one for the cwd. */
  usesDefaultSessionDir(): boolean {
    const { store, cwd } = this.session;
    return store.persisted && samePath(store.dir, paths.defaultSessionDirPath(cwd));
  }
  /** The header's session id. */
  getSessionId(): string {
    return this.session.state.header?.id ?? "";
  }
  /** The session file path (undefined in memory). */
  getSessionFile(): string | undefined {
    return this.session.sink.location;
  }
  /** The header record, or null. Read-only. */
  getHeader(): schema.SessionHeader | null {
    return this.session.state.header;
  }
  /** The current immutable snapshot of the whole session. */
  getState(): sessionState.SessionState {
    return this.session.state;
  }
  /** The state of a projection registered through `options.projections`, by name. */
  getProjectionState<S = unknown>(name: string): S | undefined {
    return sessionState.projectionState(this.session.state, name) as S | undefined;
  }
  /** Problems found at load (with line numbers), plus structural ones (duplicates, cycles). */
  getLoadDiagnostics(): LoadDiagnostic[] {
    return this.session.loadDiagnostics();
  }
  /** The 1-based file line of the entry at `position` (file order), if it was loaded. */
  getEntryLineNumber(position: number): number | undefined {
    return this.session.loaded.entryLines?.lineOf(position);
  }
  /** The leaf id, or null. */
  getLeafId(): string | null {
    return this.session.state.leafId;
  }
  /** The leaf entry, or undefined when the leaf is null. */
  getLeafEntry(): schema.SessionEntry | undefined {
    const { state } = this.session;
    return state.leafId === null ? undefined : sessionState.entryOf(state, state.leafId);
  }
  /** The indexed entry with this id (the last one wins for duplicates). */
  getEntry(id: string): schema.SessionEntry | undefined {
    return sessionState.entryOf(this.session.state, id);
  }
  /** Direct children in file order. */
  getChildren(parentId: string): schema.SessionEntry[] {
    return sessionState.childrenOfId(this.session.state, parentId);
  }
  /** The current label of an entry. */
  getLabel(id: string): string | undefined {
    return builtinProjections.labelOfId(this.session.state, id);
  }
  /** Entries from the root to `fromId` (default: the leaf). */
  getBranch(fromId?: string): schema.SessionEntry[] {
    return builtinProjections.branchOf(this.session.state, fromId);
  }
  /** Compaction-aware context entries at the leaf. O(context) from the cached leaf path. */
  buildContextEntries(): schema.SessionEntry[] {
    // The leaf's path, not getBranch(): getBranch reads "" (a valid id) as "no start".
    return builtinProjections.contextEntriesOf(this.session.state);
  }
  /** Provenance-preserving context at the leaf. O(context) from the cached leaf path. */
  buildSessionProjection(): schema.SessionProjection {
    return builtinProjections.projectionOf(this.session.state);
  }
  /** What is sent to the model at the leaf. O(context), from the incrementally kept summary. */
  buildSessionContext(): schema.SessionContext {
    return builtinProjections.contextOf(this.session.state);
  }
  /** The latest session name, trimmed, or undefined. */
  getSessionName(): string | undefined {
    return builtinProjections.nameOf(this.session.state);
  }
  /** Number of distinct entry ids, without copying. */
  getEntryCount(): number {
    return this.session.state.log.distinct;
  }
  /** All entries in file order (a new array of read-only entries). */
  getEntries(): schema.SessionEntry[] {
    return sessionState.entriesOf(this.session.state);
  }
  /** The entry tree with labels. */
  getTree(): schema.SessionTreeNode[] {
    return builtinProjections.treeOf(this.session.state);
  }

  /** Adds a guard every later append must pass (else it throws and changes nothing). */
  addEntryValidator(validator: entryValidation.EntryValidator): () => void {
    return this.session.addValidator(validator);
  }
  /** Adds a projection, replayed over the log once (O(n)); throws for a name already in use. */
  addProjection(projection: Projection<unknown>): void {
    this.session.addProjection(projection);
  }
  /** Removes a projection added by name (from the options or {@link addProjection}); false if none. */
  removeProjection(name: string): boolean {
    return this.session.removeProjection(name);
  }

  /** Appends a message of any role; returns the entry id. */
  appendMessage(message: schema.AgentMessage): string {
    return appendEntry(this.session, entryBuilders.messageEntry, message);
  }
  /** Appends a thinking level change. */
  appendThinkingLevelChange(thinkingLevel: string): string {
    return appends.appendThinkingLevelChange(this.session, thinkingLevel);
  }
  /** Appends a model change. */
  appendModelChange(provider: string, modelId: string): string {
    return appends.appendModelChange(this.session, provider, modelId);
  }
  /** [R1.6] Appends model usage outside the conversation (`note` only when non-empty). */
  appendUsage(
    kind: string,
    provider: string,
    model: string,
    usage: schema.Usage,
    note?: string,
  ): schema.UsageEntry {
    const id = appends.appendUsage(this.session, kind, provider, model, usage, note);
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
    const fields = { summary, firstKeptEntryId, tokensBefore, details, fromHook, usage };
    return appends.appendCompaction(this.session, fields);
  }
  /** Appends extension state that never reaches the model (payload keys first, as pi's). */
  appendCustomEntry(customType: string, data?: unknown): string {
    return appends.appendCustom(this.session, customType, data);
  }
  /** Appends the session name (CR/LF runs become a space, then trimmed). */
  appendSessionInfo(name: string): string {
    return appends.appendSessionInfo(this.session, name);
  }
  /** Appends extension content that reaches the model (payload keys first, as pi's). */
  appendCustomMessageEntry<D = unknown>(
    customType: string,
    content: string | (schema.TextContent | schema.ImageContent)[],
    display: boolean,
    details?: D,
  ): string {
    return appends.appendCustomMessage(this.session, customType, content, display, details);
  }
  /**
   * Our addition: appends an entry of a type of your own, made by `defineEntryType` (a
   * plugin's wire type): `{ type, id, parentId, timestamp, ...fields }` at the leaf, checked
   * by the definition's codec first. A mismatch throws `EntryRejectedError` and nothing is
   * folded or written; a built-in type's name throws a `TypeError` (use its own method).
   */
  appendDefinedEntry<D extends AnyEntryTypeDefinition>(
    definition: D,
    fields: DefinedEntryFields<D>,
  ): string {
    return appends.appendDefined(this.session, definition, fields);
  }
  /** Sets (truthy) or clears (undefined, "", null: kept as given) an existing entry's label. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    return appends.appendLabel(this.session, targetId, label);
  }
  /** [R1.6] Appends a branch-local edit of an earlier entry's context contribution (SPEC §5.4). */
  appendContextEdit(targetId: string, replacement: schema.ContextEditEntry["replacement"]): string {
    return appends.appendContextEdit(this.session, targetId, replacement);
  }

  /** Moves the leaf to an existing entry. Writes nothing. */
  branch(branchFromId: string): void {
    if (!sessionState.entryOf(this.session.state, branchFromId))
      throw new entryBuilders.EntryNotFoundError(branchFromId);
    this.session.moveLeaf(branchFromId);
  }
  /** Moves the leaf before the first entry; the next append starts a new root. */
  resetLeaf(): void {
    this.session.moveLeaf(null);
  }
  /** Moves the leaf and appends a summary; a failed append puts the leaf back (W19). */
  branchWithSummary(
    branchFromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
    usage?: schema.Usage,
  ): string {
    const fields = { summary, details, fromHook, usage };
    return appends.appendBranchSummary(this.session, branchFromId, fields);
  }
}
