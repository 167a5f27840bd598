/**
 * The SessionManager surface the model-based commands and the conformance suite drive, as
 * plain structural types. They describe what is called, not one implementation: the reference
 * npm package, `@pi-sessions/core` or a third implementation all fit at run time, so the
 * public entry points accept `object` and check the methods they need before calling them.
 */

/** A JSON object as it appears on a session line. */
export type JsonObject = Record<string, unknown>;

/** The fields every session entry has (SPEC §3.1); the rest depends on `type`. */
export interface EntryLike extends JsonObject {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

/** A node of `getTree()` (SPEC §7.8). */
export interface TreeNodeLike {
  entry: EntryLike;
  children: readonly TreeNodeLike[];
  label?: string;
  labelTimestamp?: string;
}

/** What `buildSessionContext()` returns (SPEC §8.5). */
export interface ContextLike {
  messages: readonly unknown[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

/** What `buildSessionProjection()` returns (SPEC §8.5, [R1.6]). */
export interface ProjectionLike extends ContextLike {
  entries: readonly { sourceEntry: EntryLike; messages: readonly unknown[] }[];
}

/**
 * The instance API of a pi SessionManager that the testkit calls (SPEC §4–§9). Arguments are
 * typed loosely (`unknown`) because the suite deliberately passes odd values (null labels,
 * invalid replacements) to compare how implementations treat them.
 */
export interface SessionManagerLike {
  appendMessage(message: unknown): string;
  appendThinkingLevelChange(level: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendCompaction(
    summary: string,
    firstKeptEntryId: string | null,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
    usage?: unknown,
  ): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendCustomMessageEntry(
    customType: string,
    content: unknown,
    display: boolean,
    details?: unknown,
  ): string;
  appendSessionInfo(name: string): string;
  appendLabelChange(targetId: string, label: unknown): string;
  appendUsage(
    kind: string,
    provider: string,
    model: string,
    usage: unknown,
    note?: string,
  ): unknown;
  appendContextEdit(targetId: string, replacement: unknown): string;
  branch(entryId: string): void;
  resetLeaf(): void;
  branchWithSummary(
    fromId: string | null,
    summary: string,
    details?: unknown,
    fromHook?: boolean,
    usage?: unknown,
  ): string;
  createBranchedSession(leafId: string): string | undefined;
  getEntries(): readonly EntryLike[];
  getEntry(id: string): EntryLike | undefined;
  getEntryCount(): number;
  getLeafId(): string | null;
  getLeafEntry(): EntryLike | undefined;
  getBranch(fromId?: string): readonly EntryLike[];
  getTree(): readonly TreeNodeLike[];
  getLabel(id: string): string | undefined;
  getChildren(parentId: string): readonly EntryLike[];
  getSessionName(): string | undefined;
  getHeader(): JsonObject | null;
  getSessionId(): string;
  getSessionFile(): string | undefined;
  getSessionDir(): string;
  getCwd(): string;
  isPersisted(): boolean;
  buildSessionContext(): ContextLike;
  buildSessionProjection(): ProjectionLike;
  buildContextEntries(): readonly EntryLike[];
}

/** The static factories of a SessionManager class (SPEC §4, §10). */
export interface SessionManagerStatics {
  inMemory(cwd?: string, options?: JsonObject, entries?: unknown[]): SessionManagerLike;
  create(cwd: string, sessionDir?: string, options?: JsonObject): SessionManagerLike;
  open(path: string, sessionDir?: string, cwdOverride?: string): SessionManagerLike;
  continueRecent(cwd: string, sessionDir?: string): SessionManagerLike;
  forkFrom(
    sourcePath: string,
    targetCwd: string,
    sessionDir?: string,
    options?: JsonObject,
  ): SessionManagerLike;
  list(cwd: string, sessionDir?: string): Promise<readonly JsonObject[]>;
}

/** Free context functions `(entries, leafId?)` of the session module (SPEC §8). */
type FreeContextFunction<R> = (entries: readonly unknown[], leafId?: string | null) => R;

/**
 * A session module with the reference's export names (SPEC §8.6): what
 * `await import("<pi-coding-agent>/dist/core/session-manager.js")` and
 * `await import("@pi-sessions/core")` both provide.
 */
export interface SessionModuleLike {
  SessionManager: SessionManagerStatics;
  CURRENT_SESSION_VERSION: number;
  parseSessionEntries(text: string): unknown[];
  migrateSessionEntries(records: unknown[]): void;
  buildSessionContext: FreeContextFunction<ContextLike>;
  buildSessionProjection: FreeContextFunction<ProjectionLike>;
  buildContextEntries: FreeContextFunction<readonly EntryLike[]>;
  getLatestCompactionEntry(entries: readonly unknown[]): EntryLike | null;
  sessionEntryToContextMessages(entry: unknown): unknown[];
}

/** A function that makes a fresh, empty, in-memory session manager to test. */
export type SessionManagerFactory = () => object;
