/**
 * The options of `PostgresSessionStore.connect`, and the pool the store makes from them.
 */
import { hostname } from "node:os";
import { type SessionEnv, systemEnv } from "@pi-sessions/core";
import pg from "pg";
import type { GroupCommitOptions } from "./group-commit.js";
import type { RetryPolicy } from "./writes.js";

/** Options of `PostgresSessionStore.connect`. */
export interface PostgresStoreOptions {
  /** A `postgres://` URL (ignored when `pool` is given). */
  readonly connectionString?: string;
  /**
   * A pool to use instead of making one; the store then leaves it open on `close()` (end it
   * yourself after). The store listens to the `'error'` event of the pool and of each
   * connection it opens from then on, and of each connection its group committer checks out
   * (a dropped connection must not end the process; the call that used it rejects instead).
   * While appends flow, the committer keeps one of its connections between rounds, never the
   * last one the pool may open. The connections' settings are the pool's: `applicationName`,
   * `statementTimeoutMs` and `synchronousCommit` are refused beside it (set them on your pool).
   */
  readonly pool?: pg.Pool;
  /** The schema of the store's tables (default `pi_sessions`), created and migrated. */
  readonly schema?: string;
  /**
   * The writer lease: a session opened or created here is leased to this store for `ttlMs`
   * (default 30 s, renewed by every append); `false` lets the seq of each append decide alone.
   */
  readonly lease?: { readonly ttlMs: number } | false;
  /** Who holds the leases (default host, pid and a random part). */
  readonly owner?: string;
  /**
   * Retries of a call that failed for a transient reason (default 5, from 100 ms doubling):
   * appends, a session's first write, `openSession`/`load`, imports, forks, queries and the
   * migration at `connect`.
   */
  readonly retry?: Partial<RetryPolicy>;
  /**
   * How appends are grouped into commits: rounds on the wire at once (default 4), rows in one
   * round at most (default 1000).
   */
  readonly groupCommit?: Partial<GroupCommitOptions>;
  /**
   * The connections' `application_name` (default `pi-sessions`), to find them on the server.
   * Only for a pool the store makes (a pool of yours: its `application_name` option).
   */
  readonly applicationName?: string;
  /**
   * A server-side limit for every statement, in ms (default: none). Only for a pool the store
   * makes (a pool of yours: its `statement_timeout` option).
   */
  readonly statementTimeoutMs?: number;
  /**
   * The server's `synchronous_commit` for the store's connections (default: the server's,
   * `on`). `"off"` acknowledges a commit before its WAL reaches the disk: a server crash may
   * lose the last few hundred ms of acknowledged appends (whole groups, never part of one,
   * never a gap in a session), a client crash loses nothing. Only for a pool the store makes:
   * set it on a pool of yours yourself (`options: "-c synchronous_commit=off"`).
   */
  readonly synchronousCommit?: "on" | "off" | "local" | "remote_write" | "remote_apply";
  /** Clock and ids for migrating legacy sessions as they load, and for forks (default: the system's). */
  readonly env?: SessionEnv;
}

/**
 * The options that set up the connections of a pool the store makes, each with what to set on
 * a pool of yours instead: given beside `pool`, they would do nothing, so they are refused.
 */
const POOL_SETTINGS = {
  applicationName: "application_name: …",
  statementTimeoutMs: "statement_timeout: …",
  synchronousCommit: 'options: "-c synchronous_commit=…"',
} as const satisfies { [K in keyof PostgresStoreOptions]?: string };

/** The pool `options` name, or a new one made from them. */
export function poolOf(options: PostgresStoreOptions): pg.Pool {
  if (options.pool) {
    for (const [option, instead] of Object.entries(POOL_SETTINGS)) {
      if (options[option as keyof typeof POOL_SETTINGS] !== undefined) {
        throw new Error(
          `${option} applies to the pool the store makes; set it on your pool (${instead})`,
        );
      }
    }
    return options.pool;
  }
  return new pg.Pool({
    connectionString: options.connectionString,
    application_name: options.applicationName ?? "pi-sessions",
    // 0 is the server's own "no limit", as leaving it out is.
    ...(options.statementTimeoutMs !== undefined
      ? { statement_timeout: options.statementTimeoutMs }
      : {}),
    ...(options.synchronousCommit
      ? { options: `-c synchronous_commit=${options.synchronousCommit}` }
      : {}),
  });
}

/** A store's options with their defaults filled in. */
export interface StoreSettings {
  /** The lease its sessions are taken with (undefined: `lease: false`, the seq alone decides). */
  readonly lease: { readonly owner: string; readonly ttlMs: number } | undefined;
  readonly retry: RetryPolicy;
  readonly env: SessionEnv;
  readonly groupCommit: GroupCommitOptions;
}

/** What `options` mean once their defaults are filled in. */
export function storeSettings(options: PostgresStoreOptions): StoreSettings {
  const owner =
    options.owner ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
  return {
    lease: options.lease === false ? undefined : { owner, ttlMs: options.lease?.ttlMs ?? 30_000 },
    retry: { retries: 5, delayMs: 100, ...options.retry },
    env: options.env ?? systemEnv,
    groupCommit: { maxInFlight: 4, maxRows: 1000, ...options.groupCommit },
  };
}
