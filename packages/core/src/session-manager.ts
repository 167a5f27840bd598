import { dirname, join, resolve } from "node:path";
import { type SessionEnv, systemEnv } from "./env/env.js";
import { assertValidSessionId } from "./env/ids.js";
import { resolveCwd } from "./env/paths.js";
import { branchedEntries } from "./manager/branched-session.js";
import { splitRecords } from "./manager/load-records.js";
import { loadText } from "./manager/load-text.js";
import { isDefaultDir, SessionCatalog } from "./manager/session-catalog.js";
import { EntryNotFoundError } from "./manager/session-editor.js";
import * as q from "./manager/session-queries.js";
import type { Projection } from "./projections/define-projection.js";
import type { FileEntry, NewSessionOptions, SessionEntry, SessionHeader } from "./schema/types.js";
import type { SessionManagerOptions } from "./session-manager-types.js";
import { lastEntry } from "./state/entry-log.js";
import { initialState, replayOwned, type SessionState, withLeaf } from "./state/session-state.js";
import { findMostRecentSession, readHeader } from "./store/discovery.js";
import {
  defaultSessionDirPath,
  ensureDir,
  getDefaultSessionDir,
  sessionFileName,
} from "./store/paths.js";
import {
  isConversationEntry,
  resolveSessionDir,
  samePath,
  sessionLines,
} from "./store/session-files.js";
import { openSessionFile, readForkSource, writeNewSession } from "./store/session-open.js";
import { type Durability, SessionFileWriter } from "./store/session-writer.js";

export type { ReadonlySessionManager, SessionManagerOptions } from "./session-manager-types.js";

const notFound = (id: string): EntryNotFoundError => new EntryNotFoundError(id);

/**
 * A pi session: an append-only tree of entries with a movable leaf, drop-in compatible with
 * the reference `SessionManager` (SPEC §4–§9). Internally every change is one immutable
 * `SessionState` replacing the previous one; `getState()` hands out those snapshots.
 */
export class SessionManager extends SessionCatalog {
  protected state: SessionState;
  protected readonly env: SessionEnv;
  protected projections: readonly Projection<unknown>[];
  protected cwd: string;
  /** The open session file once it exists (flushed); undefined in memory and while pending. */
  protected writer: SessionFileWriter | undefined;
  protected readonly durability: Durability;

  protected constructor(cwd: string, options: SessionManagerOptions) {
    super();
    this.durability = options.durability ?? "never";
    this.env = options.env ?? systemEnv;
    this.projections = options.projections ?? [];
    this.bus.reportError = options.onHandlerError;
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
    sm.entryLines = loaded.entryLines;
    return sm;
  }

  // --- file-backed factories (SPEC §4, §6, §10) ----------------------------------------

  /** A new persisted session in `sessionDir` (default: the cwd's directory, created). */
  static create(cwd: string, sessionDir?: string, options?: SessionManagerOptions): SessionManager {
    const sm = new SessionManager(cwd, options ?? {});
    sm.usePersistence(sessionDir ? resolveSessionDir(sessionDir) : getDefaultSessionDir(sm.cwd));
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
    const env = options?.env ?? systemEnv;
    // No scan limit: the reference falls back to a full scan for a header over 1 MiB.
    const headerCwd = readHeader(file, Number.POSITIVE_INFINITY)?.cwd;
    const cwd = cwdOverride ?? (typeof headerCwd === "string" ? headerCwd : process.cwd());
    const sm = new SessionManager(cwd, options ?? {});
    sm.usePersistence(sessionDir ? resolveSessionDir(sessionDir) : dirname(file));
    sm.adoptFile(file, env);
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
    sm.usePersistence(dir);
    const recent = findMostRecentSession(dir, sm.cwd, isDefaultDir(dir, sm.cwd));
    if (recent) sm.adoptFile(recent, sm.env);
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
    const entries = readForkSource(source, sm.env);
    sm.usePersistence(sessionDir ? resolveSessionDir(sessionDir) : getDefaultSessionDir(sm.cwd));
    const header = sm.newHeader({ id: options?.id }, source);
    const file = join(sm.sessionDir, sessionFileName(header.timestamp, header.id));
    sm.writer = writeNewSession(file, header, entries, sm.durability);
    sm.sessionFile = file;
    sm.state = replayOwned(JSON.parse(JSON.stringify(header)), entries, sm.projections);
    return sm;
  }

  /** Switches to another session file by the load rules of `open`, keeping the current cwd. */
  setSessionFile(sessionFile: string): void {
    const previous = this.sessionRef();
    if (!this.persist) this.usePersistence(dirname(resolve(sessionFile)));
    this.adoptFile(resolve(sessionFile), this.env);
    this.emitSwitched("open", previous);
  }

  /** Makes this manager file-backed in `dir` (created with mode 0700 if missing). */
  protected usePersistence(dir: string): void {
    ensureDir(dir);
    this.persist = true;
    this.sessionDir = dir;
  }

  /** Replaces the session by the one at `file` (missing: pending; empty: header written). */
  protected adoptFile(file: string, env: SessionEnv): void {
    const opened = openSessionFile(file, env, () => this.newHeader(), this.durability);
    this.closeFile();
    this.sessionFile = file;
    this.writer = opened.writer;
    this.state = replayOwned(opened.header, opened.entries, this.projections);
    this.loadDiagnostics = opened.diagnostics;
    this.entryLines = opened.entryLines;
  }

  /** Whether the session directory is the default one for the cwd. */
  usesDefaultSessionDir(): boolean {
    return this.persist && samePath(this.sessionDir, defaultSessionDirPath(this.cwd));
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
    this.entryLines = undefined;
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

  /**
   * Starts a new empty session; returns its file path, or undefined in memory. A persisted
   * session's file is named after the header and written at the first conversation message
   * (SPEC §6.2); the previous file is left alone.
   */
  newSession(options?: NewSessionOptions): string | undefined {
    const previous = this.sessionRef();
    const header = JSON.parse(JSON.stringify(this.newHeader(options))) as SessionHeader;
    this.closeFile();
    this.state = initialState(header, this.projections);
    this.loadDiagnostics = [];
    this.entryLines = undefined;
    if (this.persist) {
      this.sessionFile = join(this.sessionDir, sessionFileName(header.timestamp, header.id));
    }
    this.emitSwitched("new", previous);
    return this.sessionFile;
  }

  /**
   * Persists one appended entry (SPEC §6): nothing in memory; while pending, nothing until a
   * user or assistant message arrives, which writes the header and every entry so far with
   * exclusive create; once flushed, one line per append through the writer (torn-tail
   * repair, conflict check, rollback of partial writes: W1, W2, W7, W8).
   */
  protected persistEntry(entry: SessionEntry): void {
    if (!this.persist) return;
    if (this.writer) {
      this.writer.appendRecord(JSON.stringify(entry), { fsync: this.durability === "always" });
      return;
    }
    if (!isConversationEntry(entry) || this.sessionFile === undefined) return;
    const lines = sessionLines(this.state.header as SessionHeader, q.entriesOf(this.state));
    this.writer = SessionFileWriter.createNew(this.sessionFile, lines, {
      durability: this.durability,
    });
  }

  /**
   * Runs first in every write. When an older manager of this process appended to our file
   * since we read it — pi's old session writing from its shutdown handler after a resume
   * opened the same file again — the file is reloaded so the write continues from those
   * entries: W7 allows ingesting a foreign writer's complete lines, never a silent fork, and
   * within one process those lines are our own writer's. A leaf at the old tip follows the new
   * entries when they continue it; any other leaf (including none) stays. O(1) while this
   * manager holds the file.
   */
  protected override catchUp(): void {
    const writer = this.writer;
    if (writer === undefined || !writer.grownByThisProcess()) return;
    const previous = this.sessionRef();
    const leaf = this.state.leafId;
    const atTip = leaf !== null && leaf === lastEntry(this.state.log)?.id;
    this.adoptFile(writer.path, this.env);
    const tip = this.state.leafId;
    const follows = atTip && tip !== null && q.branchOf(this.state, tip).some((e) => e.id === leaf);
    if (!follows && (leaf === null || q.entryOf(this.state, leaf))) {
      this.state = withLeaf(this.state, leaf);
    }
    this.emitSwitched("reload", previous);
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
    const parent = this.persist && this.writer ? this.sessionFile : undefined;
    const header = this.newHeader(undefined, parent);
    const copies = JSON.parse(JSON.stringify({ header, entries })) as {
      header: SessionHeader;
      entries: SessionEntry[];
    };
    // Write the new file (when due) before switching: if the write fails, the manager is
    // still on the old session, as after any failed append.
    let file: string | undefined;
    let writer: SessionFileWriter | undefined;
    if (this.persist) {
      file = join(this.sessionDir, sessionFileName(copies.header.timestamp, copies.header.id));
      if (copies.entries.some(isConversationEntry)) {
        writer = writeNewSession(file, copies.header, copies.entries, this.durability);
      }
    }
    this.closeFile();
    this.state = replayOwned(copies.header, copies.entries, this.projections);
    this.loadDiagnostics = [];
    this.entryLines = undefined;
    if (file !== undefined) this.sessionFile = file;
    this.writer = writer;
    this.emitSwitched("branched", previous);
    return file;
  }

  /**
   * Releases the session file (fd and writer lock) so another process may write it. The
   * manager stays usable: the next append takes the lock again and checks that nobody wrote
   * in the meantime (else `SessionConflictError`). Closing does not make a manager newer: one
   * that a newer manager of this process took the file over from stays refused.
   */
  close(): void {
    this.writer?.release();
  }

  /** Closes the current file, if any; the session becomes pending or in-memory again. */
  protected closeFile(): void {
    this.writer?.close();
    this.writer = undefined;
  }
}
