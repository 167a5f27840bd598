import { type SessionEnv, systemEnv } from "./env/env.js";
import { assertValidSessionId } from "./env/ids.js";
import { resolveCwd } from "./env/paths.js";
import { branchedEntries } from "./manager/branched-session.js";
import { splitRecords } from "./manager/load-records.js";
import { loadText } from "./manager/load-text.js";
import { EntryNotFoundError, SessionEditor } from "./manager/session-editor.js";
import * as q from "./manager/session-queries.js";
import type { Projection } from "./projections/define-projection.js";
import type { FileEntry, NewSessionOptions, SessionEntry, SessionHeader } from "./schema/types.js";
import { initialState, replayOwned, type SessionState } from "./state/session-state.js";

/** Options accepted where the reference takes `NewSessionOptions`, plus our injection points. */
export interface SessionManagerOptions extends NewSessionOptions {
  /** Clock and random source (default: the system's). Tests pass a deterministic env. */
  env?: SessionEnv;
  /** Extra projections folded next to the built-ins (plugins). */
  projections?: readonly Projection<unknown>[];
}

const notFound = (id: string): EntryNotFoundError => new EntryNotFoundError(id);

/**
 * A pi session: an append-only tree of entries with a movable leaf, drop-in compatible with
 * the reference `SessionManager` (SPEC §4–§9). Internally every change is one immutable
 * `SessionState` replacing the previous one; `getState()` hands out those snapshots.
 */
export class SessionManager extends SessionEditor {
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

  /**
   * Replaces the session by a new one holding only the path to `leafId`, labels recreated
   * (SPEC §9). Returns the new file path, or undefined in memory.
   */
  /** Writes one appended entry; nothing to do in memory. */
  protected persistEntry(_entry: SessionEntry, _line: string): void {}

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
