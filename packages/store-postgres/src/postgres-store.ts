/**
 * A `SessionStore` over PostgreSQL. pi's API is synchronous and a database is not, so:
 * - appends fold at once and their writes queue in order (core's `queuedSink`);
 *   `manager.flush()` resolves once every accepted append is committed, and the first write
 *   that fails for good puts the manager in a failed state (`SessionStoreFailedError`, with
 *   the cause) that refuses every further write; the database never holds a gap;
 * - appends are committed in groups: a session's queued appends as one group, the groups of
 *   all the store's sessions in one statement and one commit (`GroupCommitter`), each group
 *   with its own checks and verdict;
 * - opening is two steps: `await store.load(id)` (or `openSession`) takes the writer lease and
 *   reads the session, and the manager's synchronous `open` then replays what was read;
 * - a call that fails for a transient reason (a dropped connection, a restart) is retried, and
 *   no connection's end ever reaches the process as an unhandled `'error'`.
 */
import {
  type OpenedSession,
  type SessionEntry,
  type SessionEnv,
  type SessionHeader,
  type SessionInfo,
  SessionManager,
  type SessionManagerOptions,
  type SessionSink,
  type SessionStore,
  type StoredSession,
} from "@pi-sessions/core";
import { isConversationEntry } from "@pi-sessions/core/internal";
import type pg from "pg";
import { forkStored } from "./fork.js";
import { GroupCommitter } from "./group-commit.js";
import { type FinalState, letGo, postgresSink } from "./postgres-sink.js";
import {
  findSessionById,
  listAllSessions,
  listSessions,
  type SessionUsageRecords,
  usageRecords,
} from "./queries.js";
import { migrate, quoteSchema } from "./schema.js";
import { type LoadedSession, LoadedSessions, loadSession } from "./session-load.js";
import { type PostgresStoreOptions, poolOf, storeSettings } from "./store-options.js";
import { hearConnectionErrors } from "./transaction.js";
import { exportBytes, exportToDir, importBytes, importFile } from "./transfer.js";
import { type Lease, type RetryPolicy, withRetry } from "./writes.js";

export type { PostgresStoreOptions } from "./store-options.js";

/** A store of sessions in one PostgreSQL schema; see the module notes for the guarantee. */
export class PostgresSessionStore implements SessionStore {
  /** Sessions outlive the process. */
  readonly persisted = true;
  /** A path-shaped namespace, so the manager's path handling leaves locations unchanged. */
  readonly dir: string;
  /** The quoted schema, for SQL over the store's tables (the package's own, and yours). */
  readonly s: string;
  private readonly loaded = new LoadedSessions();
  private readonly releases = new Set<Promise<void>>();
  private readonly lease: { owner: string; ttlMs: number } | undefined;
  /** How calls retry on transient faults (read by the import). */
  readonly retry: RetryPolicy;
  /** Clock and ids of legacy migrations and forks. */
  readonly env: SessionEnv;
  /** Every append of the store's sessions goes through it. */
  private readonly committer: GroupCommitter;

  private constructor(
    /** The connections: the store's own, or the pool it was given. */
    readonly pool: pg.Pool,
    /** The schema of the store's tables. */
    readonly schema: string,
    private readonly ownsPool: boolean,
    options: PostgresStoreOptions,
    private readonly unhear: () => void,
  ) {
    this.s = quoteSchema(schema);
    this.dir = `/postgres/${schema}`;
    const settings = storeSettings(options);
    this.lease = settings.lease;
    this.retry = settings.retry;
    this.env = settings.env;
    this.committer = new GroupCommitter(pool, this.s, this.retry, settings.groupCommit);
  }

  /** Connects, creates or migrates the schema, and returns the store. */
  static async connect(options: PostgresStoreOptions): Promise<PostgresSessionStore> {
    const schema = options.schema ?? "pi_sessions";
    quoteSchema(schema);
    const pool = poolOf(options);
    // A connection the server dropped (a restart, a crash, a terminated backend) must not end
    // the process: the pool discards it and the call that used it rejects (or is retried).
    const unhear = hearConnectionErrors(pool);
    const store = new PostgresSessionStore(pool, schema, !options.pool, options, unhear);
    try {
      await withRetry(store.retry, () => migrate(pool, schema));
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Where a session of this header lives: `<dir>/<id>`. */
  locationOf(header: SessionHeader): string {
    return `${this.dir}/${header.id}`;
  }

  /** The session id of a location (an id is accepted as it is). */
  idOf(location: string): string {
    const prefix = `${this.dir}/`;
    const id = location.startsWith(prefix) ? location.slice(prefix.length) : location;
    if (id === "" || id.includes("/")) throw new Error(`Not a session of ${this.dir}: ${location}`);
    return id;
  }

  /** A new session: written whole at once (`"now"`) or at its first conversation entry. */
  create(
    header: SessionHeader,
    entries: readonly SessionEntry[],
    when: "conversation" | "now",
  ): SessionSink {
    const location = this.locationOf(header);
    // A new session's first lease: whoever inserts the row holds token 1.
    const sink = this.sinkOf(location, this.lease && { ...this.lease, token: 1 }, undefined);
    if (when === "now" || entries.some(isConversationEntry)) sink.createWith({ header, entries });
    return sink;
  }

  /**
   * Reads the session (taking the writer lease unless `write` is false) so that the next
   * synchronous `open` or `read` of its location replays it. Returns the location. Loaded with
   * `write: false`, nothing is written (no lease, a legacy session migrated in memory only)
   * and the session can be `read`, not opened.
   */
  async load(idOrLocation: string, options: { write?: boolean } = {}): Promise<string> {
    const id = this.idOf(idOrLocation);
    const location = `${this.dir}/${id}`;
    const write = options.write ?? true;
    // Retried on a transient fault like a write: taking the lease again is ours to take (the
    // same owner), and a legacy rewrite that committed is found done by the next load.
    const session = await withRetry(this.retry, () =>
      loadSession({
        pool: this.pool,
        s: this.s,
        id,
        location,
        env: this.env,
        readOnly: !write,
        ...(this.lease ? { lease: this.lease } : {}),
      }),
    );
    this.loaded.put(location, session);
    return location;
  }

  /** A manager on the session `id`, loaded and leased first (the cwd defaults to its header's). */
  async openSession(
    id: string,
    options: SessionManagerOptions & { cwd?: string } = {},
  ): Promise<SessionManager> {
    const location = await this.load(id);
    const cwd = (this.loaded.peek(location)?.loaded.header as { cwd?: unknown } | null)?.cwd;
    const sm = SessionManager.withStore(
      this,
      options.cwd ?? (typeof cwd === "string" ? cwd : process.cwd()),
      options,
    );
    sm.setSessionFile(location);
    return sm;
  }

  /**
   * A copy of the stored session `sourceId` as a new session of `targetCwd`, as core's
   * `SessionManager.forkFrom` makes one of a file: every entry (the whole tree), a new header
   * whose `parentSession` is the source's location, written at once; then opened (leased) and
   * returned. The source is only read. `options.id` names the copy; `options.parentSession`
   * is ignored, as core ignores it.
   */
  async forkFrom(
    sourceId: string,
    targetCwd: string,
    options: SessionManagerOptions = {},
  ): Promise<SessionManager> {
    return forkStored(this, sourceId, targetCwd, options);
  }

  /** The session `load` read for writing at `location`, replayed, with its sink. */
  open(location: string): OpenedSession {
    const session = this.loaded.take(location);
    if (session.readOnly) {
      throw new Error(`Loaded for reading only (await store.load(id) to write): ${location}`);
    }
    const { header, entries, diagnostics, entryLines } = session.loaded;
    const sink = this.sinkOf(location, session.lease, session);
    return { header, entries, diagnostics, entryLines, sink };
  }

  /** The session `load` read for `location`, without a sink (a fork source). */
  read(location: string): StoredSession {
    const { header, entries, diagnostics, entryLines } = this.loaded.take(location).loaded;
    return { header, entries, diagnostics, entryLines };
  }

  /** Stores a pi session file as it is, byte for byte; returns the session's id. */
  importFile(path: string): Promise<string> {
    return importFile(this, path);
  }

  /** Stores a session file's bytes as they are; returns the session's id. */
  importBytes(bytes: Buffer, label?: string): Promise<string> {
    return importBytes(this, bytes, label);
  }

  /** The session as a pi session file's bytes: exactly what the file store writes. */
  exportBytes(id: string): Promise<Buffer> {
    return withRetry(this.retry, () => exportBytes(this, this.idOf(id)));
  }

  /** Writes the session as a pi session file into `dir` (the file store's name); its path. */
  exportToDir(id: string, dir: string): Promise<string> {
    return exportToDir(this, this.idOf(id), dir);
  }

  /** The sessions of one working directory, newest activity first (core's listing fold). */
  list(cwd: string): Promise<SessionInfo[]> {
    return withRetry(this.retry, () => listSessions(this, cwd));
  }

  /** Every session of the store, newest activity first. */
  listAll(): Promise<SessionInfo[]> {
    return withRetry(this.retry, () => listAllSessions(this));
  }

  /** The session with exactly this id, or undefined. */
  findById(id: string): Promise<SessionInfo | undefined> {
    return withRetry(this.retry, () => findSessionById(this, id));
  }

  /**
   * Every session's usage-bearing records, selected by SQL, for
   * `computeSessionsUsageTotals(await store.usageRecords())` of `@pi-sessions/plugins`.
   */
  usageRecords(): Promise<SessionUsageRecords[]> {
    return withRetry(this.retry, () => usageRecords(this));
  }

  /**
   * Resolves once every session its managers let go of (`close()`, a switch to another
   * session) is released: its queued writes done, its lease given up, its listing state saved.
   */
  async released(): Promise<void> {
    await Promise.all([...this.releases]);
  }

  /** Waits for every lease being given up, and ends the pool when the store made it. */
  async close(): Promise<void> {
    await Promise.all([...this.releases]);
    this.committer.close();
    if (this.ownsPool) await this.pool.end();
    else this.unhear();
  }

  private sinkOf(
    location: string,
    lease: Lease | undefined,
    opened: Pick<LoadedSession, "nextSeq" | "needsNewline" | "leaseTakenAt" | "fold"> | undefined,
  ) {
    return postgresSink({
      pool: this.pool,
      committer: this.committer,
      s: this.s,
      id: this.idOf(location),
      location,
      retry: this.retry,
      lease,
      ...(opened === undefined
        ? {}
        : {
            nextSeq: opened.nextSeq,
            needsNewline: opened.needsNewline,
            leaseTakenAt: opened.leaseTakenAt,
          }),
      ...(opened?.fold === undefined ? {} : { fold: opened.fold }),
      letGo: (l, after, final) => this.letGo(location, l, after, final),
    });
  }

  /** Lets a sink's session go (see `letGo`); `released()` and `close()` wait for it. */
  private letGo(
    location: string,
    lease: Lease | undefined,
    after: Promise<void>,
    final: () => FinalState | undefined,
  ): void {
    const done = letGo(this.pool, this.s, this.idOf(location), lease, after, final);
    this.releases.add(done);
    void done.then(() => this.releases.delete(done));
  }
}
