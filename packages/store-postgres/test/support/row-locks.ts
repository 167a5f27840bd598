/**
 * Interleaving statements on two connections without timing: a transaction held open on a
 * connection of its own, and a wait until some other statement waits for its locks.
 */
import pg from "pg";
import type { PostgresSessionStore } from "../../src/index.js";
import { pgUrl } from "./store.js";

/** A transaction held open after `sql` ran in it. */
export interface HeldTransaction {
  /** Its backend's pid (what `pg_blocking_pids` names). */
  readonly pid: number;
  /** The connection, to hand the store's statements (they join the transaction). */
  readonly client: pg.ClientBase;
  /** Commits it and closes the connection. */
  commit(): Promise<void>;
}

/** Opens a connection, begins a transaction, runs `sql` in it and holds it open. */
export async function heldClient(sql: string, params: unknown[]): Promise<HeldTransaction> {
  const client = new pg.Client({ connectionString: pgUrl() });
  await client.connect();
  await client.query("BEGIN");
  await client.query(sql, params);
  const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]
    ?.pid as number;
  return {
    pid,
    client,
    async commit() {
      await client.query("COMMIT");
      await client.end();
    },
  };
}

/**
 * Resolves once a statement waits for the locks of the backend `pid`; rejects when `pending`
 * (the call that should wait) settles first: it did not wait.
 */
export async function blockedBy(
  store: PostgresSessionStore,
  pid: number,
  pending: Promise<unknown>,
): Promise<void> {
  let settled = false;
  void pending.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (;;) {
    const waiting = await store.pool.query(
      "SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
      [pid],
    );
    if (waiting.rows.length > 0) return;
    if (settled) throw new Error(`The call settled without waiting for backend ${pid}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The session row's version (`xmin`): it changes when the row is updated, not when locked. */
export async function rowVersion(store: PostgresSessionStore, id: string): Promise<string> {
  const r = await store.pool.query<{ v: string }>(
    `SELECT xmin::text AS v FROM ${store.s}.sessions WHERE id = $1`,
    [id],
  );
  return r.rows[0]?.v as string;
}
