import { type SessionEnv, systemEnv } from "./env/env.js";
import { assertValidSessionId, generateEntryId } from "./env/ids.js";
import { resolveCwd } from "./env/paths.js";
import { branchedEntries } from "./manager/branched-session.js";
import * as build from "./manager/entry-builders.js";
import { splitRecords } from "./manager/load-records.js";
import { loadText } from "./manager/load-text.js";
import * as q from "./manager/session-queries.js";
import { SessionReader } from "./manager/session-reader.js";
import { systemCheckpoint } from "./manager/system-checkpoint.js";
import { summaryMessages } from "./projections/context-cache.js";
import type { Projection } from "./projections/define-projection.js";
import { sanitizeSessionName } from "./projections/session-name.js";
import type {
  AgentMessage,
  ContextEditEntry,
  FileEntry,
  ImageContent,
  NewSessionOptions,
  SessionEntry,
  SessionHeader,
  TextContent,
  Usage,
  UsageEntry,
} from "./schema/types.js";
import { hasSeenId } from "./state/entry-log.js";
import {
  foldEntry,
  initialState,
  replayOwned,
  type SessionState,
  withLeaf,
} from "./state/session-state.js";

/** Options accepted where the reference takes `NewSessionOptions`, plus our injection points. */
export interface SessionManagerOptions extends NewSessionOptions {
  /** Clock and random source (default: the system's). Tests pass a deterministic env. */
  env?: SessionEnv;
  /** Extra projections folded next to the built-ins (plugins). */
  projections?: readonly Projection<unknown>[];
}

/** Thrown for an unknown entry id, with the reference's message (SPEC §5.5). */
export class EntryNotFoundError extends Error {
  constructor(readonly entryId: string) {
    super(`Entry ${entryId} not found`);
    this.name = "EntryNotFoundError";
  }
}

const notFound = (id: string): EntryNotFoundError => new EntryNotFoundError(id);

/**
 * A pi session: an append-only tree of entries with a movable leaf, drop-in compatible with
 * the reference `SessionManager` (SPEC §4–§9). Internally every change is one immutable
 * `SessionState` replacing the previous one; `getState()` hands out those snapshots.
 */
export class SessionManager extends SessionReader {
  protected state: SessionState;
  protected readonly env: SessionEnv;
  protected readonly projections: readonly Projection<unknown>[];
  protected cwd: string;

  protected constructor(cwd: string, options: SessionManagerOptions) {
    super();
    this.env = options.env ?? systemEnv;
    this.projections = options.projections ?? [];
    this.cwd = resolveCwd(cwd);
    this.state = initialState(null, this.projections);
  }

  /**
   * A session that never touches the filesystem. With `entries`, a header among them is
   * adopted (and `options` ignored); the entries are copied, migrated and replayed, and the
   * leaf is the last one (SPEC §6.6, W20).
   */
  static inMemory(
    cwd: string = process.cwd(),
    options?: SessionManagerOptions,
    entries?: FileEntry[],
  ): SessionManager {
    const sm = new SessionManager(cwd || process.cwd(), options ?? {});
    if (!entries || entries.length === 0) {
      sm.newSession(options);
      return sm;
    }
    const copies = entries.map((e) => JSON.parse(JSON.stringify(e)) as Record<string, unknown>);
    sm.adoptRecords(copies, options);
    return sm;
  }

  /**
   * A session loaded from JSONL text, in memory (our addition; the file store's `open` uses
   * the same path). The cwd defaults to the header's, as `open` does. Malformed lines are reported by {@link getLoadDiagnostics} with their line
   * numbers; throws {@link InvalidSessionError} when the text has no valid header first.
   */
  static fromJsonl(text: string, cwd?: string, options?: SessionManagerOptions): SessionManager {
    const loaded = loadText(text, options?.env ?? systemEnv);
    const headerCwd = loaded.header?.cwd;
    const sm = new SessionManager(
      cwd || (typeof headerCwd === "string" && headerCwd) || process.cwd(),
      options ?? {},
    );
    sm.state = replayOwned(loaded.header, loaded.entries, sm.projections);
    sm.loadDiagnostics = loaded.diagnostics;
    return sm;
  }

  /** Replaces the state by migrated records (header adopted, or a new one from options). */
  protected adoptRecords(records: Record<string, unknown>[], options?: NewSessionOptions): void {
    // Headerless entries join a fresh v3 header first, so they are not taken for v1 records.
    const withHeader = records.some((r) => r.type === "session")
      ? records
      : [
          JSON.parse(JSON.stringify(this.newHeader(options))) as Record<string, unknown>,
          ...records,
        ];
    const split = splitRecords(withHeader, this.env);
    this.state = replayOwned(split.header, split.entries, this.projections);
    this.loadDiagnostics = split.diagnostics;
  }

  /** Builds a fresh header (SPEC §4 newSession) after validating a custom id. */
  protected newHeader(
    options?: NewSessionOptions,
    parentSession = options?.parentSession,
  ): SessionHeader {
    if (options?.id !== undefined) assertValidSessionId(options.id);
    return {
      type: "session",
      version: 3,
      id: options?.id ?? this.env.uuidv7(),
      timestamp: this.env.now().toISOString(),
      cwd: this.cwd,
      parentSession,
    } as SessionHeader;
  }

  /** Starts a new empty session; returns its file path, or undefined in memory. */
  newSession(options?: NewSessionOptions): string | undefined {
    const header = JSON.parse(JSON.stringify(this.newHeader(options))) as SessionHeader;
    this.state = initialState(header, this.projections);
    this.loadDiagnostics = [];
    return this.sessionFile;
  }

  // --- appending ------------------------------------------------------------------------

  /** A fresh id that was never used in this session (shadowed duplicates included). */
  protected newEntryId(): string {
    const log = this.state.log;
    return generateEntryId(this.env, (id) => hasSeenId(log, id));
  }

  /**
   * The common append (SPEC §5.1): build the entry as a child of the leaf, store the JSON
   * value of its line, fold it, persist it; if persisting throws, the previous state is
   * restored untouched and the error rethrown.
   */
  protected appendEntry<T extends SessionEntry>(make: (b: build.EntryBase) => T): T {
    const base = {
      id: this.newEntryId(),
      parentId: this.state.leafId,
      timestamp: this.env.now().toISOString(),
    };
    const { line, stored } = build.storedForm(make(base));
    const before = this.state;
    this.state = foldEntry(before, stored);
    try {
      this.persistEntry(stored, line);
    } catch (error) {
      this.state = before;
      throw error;
    }
    return stored;
  }

  /** Writes one appended entry; nothing to do in memory. The file store overrides this. */
  protected persistEntry(_entry: SessionEntry, _line: string): void {}

  /** Appends a message of any role; returns the entry id. */
  appendMessage(message: AgentMessage): string {
    return this.appendEntry((b) => build.messageEntry(b, message)).id;
  }
  /** Appends a thinking level change. */
  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.appendEntry((b) => build.thinkingLevelEntry(b, thinkingLevel)).id;
  }
  /** Appends a model change. */
  appendModelChange(provider: string, modelId: string): string {
    return this.appendEntry((b) => build.modelChangeEntry(b, provider, modelId)).id;
  }
  /** [R1.6] Appends model usage outside the conversation; returns the whole entry. */
  appendUsage(
    kind: string,
    provider: string,
    model: string,
    usage: Usage,
    note?: string,
  ): UsageEntry {
    return this.appendEntry((b) => build.usageEntry(b, kind, provider, model, usage, note));
  }
  /**
   * Appends a compaction. A null/undefined `firstKeptEntryId` means "keep none" (the entry's
   * own id). Records the system-prompt checkpoint when the context has system messages.
   */
  appendCompaction<T = unknown>(
    summary: string,
    firstKeptEntryId: string | null,
    tokensBefore: number,
    details?: T,
    fromHook?: boolean,
    usage?: Usage,
  ): string {
    const contextMessages = summaryMessages(q.leafSummary(this.state));
    return this.appendEntry((b) =>
      build.compactionEntry(b, {
        summary,
        firstKeptEntryId: firstKeptEntryId ?? b.id,
        tokensBefore,
        details,
        usage,
        fromHook,
        systemMessage: systemCheckpoint(contextMessages, new Date(b.timestamp).getTime()),
      }),
    ).id;
  }
  /** Appends extension state that never reaches the model. */
  appendCustomEntry(customType: string, data?: unknown): string {
    return this.appendEntry((b) => build.customEntry(b, customType, data)).id;
  }
  /** Appends the session name (CR/LF runs become a space, then trimmed). */
  appendSessionInfo(name: string): string {
    return this.appendEntry((b) => build.sessionInfoEntry(b, sanitizeSessionName(name))).id;
  }
  /** Appends extension content that reaches the model. */
  appendCustomMessageEntry<T = unknown>(
    customType: string,
    content: string | (TextContent | ImageContent)[],
    display: boolean,
    details?: T,
  ): string {
    return this.appendEntry((b) =>
      build.customMessageEntry(b, customType, content, display, details),
    ).id;
  }
  /** Sets (truthy) or clears (undefined, "", null) the label of an existing entry. */
  appendLabelChange(targetId: string, label: string | undefined): string {
    if (!q.entryOf(this.state, targetId)) throw notFound(targetId);
    return this.appendEntry((b) => build.labelEntry(b, targetId, label)).id;
  }
  /** [R1.6] Appends a branch-local edit of an earlier entry's context contribution (SPEC §5.4). */
  appendContextEdit(targetId: string, replacement: ContextEditEntry["replacement"]): string {
    const content = (replacement as { content?: unknown } | null)?.content;
    if (
      replacement !== null &&
      (typeof replacement !== "object" || (typeof content !== "string" && !Array.isArray(content)))
    ) {
      throw new Error("Context edit replacement must be null or contain string/array content");
    }
    const target = q.entryOf(this.state, targetId);
    if (!target) throw notFound(targetId);
    if (!q.branchOf(this.state).some((e) => e.id === targetId)) {
      throw new Error(`Entry ${targetId} is not on the active branch`);
    }
    const role = target.type === "message" ? target.message?.role : undefined;
    const editable =
      target.type === "custom_message" ||
      role === "user" ||
      role === "assistant" ||
      role === "toolResult";
    if (!editable) throw new Error(`Entry ${targetId} does not contribute editable model content`);
    let stored = replacement;
    if (
      replacement &&
      typeof content === "string" &&
      (role === "assistant" || role === "toolResult")
    ) {
      // As the reference: the wrapped form replaces the argument whole (extra keys dropped).
      stored = { content: [{ type: "text", text: content }] };
    }
    return this.appendEntry((b) => build.contextEditEntry(b, targetId, stored)).id;
  }

  // --- moving the leaf ------------------------------------------------------------------

  /** Moves the leaf to an existing entry. Writes nothing. */
  branch(branchFromId: string): void {
    if (!q.entryOf(this.state, branchFromId)) throw notFound(branchFromId);
    this.state = withLeaf(this.state, branchFromId);
  }
  /** Moves the leaf before the first entry; the next append starts a new root. */
  resetLeaf(): void {
    this.state = withLeaf(this.state, null);
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
    usage?: Usage,
  ): string {
    if (branchFromId !== null && !q.entryOf(this.state, branchFromId)) throw notFound(branchFromId);
    const before = this.state;
    const fromId = before.leafId ?? "root";
    this.state = withLeaf(before, branchFromId);
    try {
      return this.appendEntry((b) =>
        build.branchSummaryEntry(b, fromId, summary, details, usage, fromHook),
      ).id;
    } catch (error) {
      this.state = before;
      throw error;
    }
  }

  /**
   * Replaces the session by a new one holding only the path to `leafId`, labels recreated
   * (SPEC §9). Returns the new file path, or undefined in memory.
   */
  createBranchedSession(leafId: string): string | undefined {
    const path = q.branchOf(this.state, leafId);
    if (path.length === 0) throw notFound(leafId);
    const entries = branchedEntries(path, q.labelMapOf(this.state), this.env);
    const header = this.newHeader(undefined, this.persist ? this.sessionFile : undefined);
    const copies = JSON.parse(JSON.stringify({ header, entries })) as {
      header: SessionHeader;
      entries: SessionEntry[];
    };
    this.state = replayOwned(copies.header, copies.entries, this.projections);
    this.loadDiagnostics = [];
    return this.sessionFile;
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
