/**
 * One transaction on a pooled connection, the way every multi-statement write of the store
 * runs: BEGIN, the work, COMMIT; on failure ROLLBACK, and a connection that broke mid-way is
 * dropped from the pool rather than handed to the next caller.
 *
 * A checked-out client is nobody's to listen to: pg-pool removes its own `'error'` listener
 * while a client is out, and a client emits `'error'` when its connection ends (a FATAL between
 * two statements, a crashed server, a reset), with or without a query running. Unheard, that
 * event ends the process. So the transaction listens for as long as it holds the client, and
 * turns the event into the failure of its work.
 */
import type pg from "pg";

/** Connection-level failures and cancellations: the statement did not commit, or we cannot know. */
const TRANSIENT_CODES = new Set([
  "57P01", // admin_shutdown: pg_terminate_backend, a fast shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up, in recovery
  "57014", // query_canceled: a statement timeout, pg_cancel_backend
  "53300", // too_many_connections
  "40P01", // deadlock_detected: the victim's transaction is rolled back, a retry may pass
  "55P03", // lock_not_available: a lock_timeout (a migration's, behind a long transaction)
  "08000",
  "08003",
  "08006",
  "08001",
  "08004",
]);

/** pg's message for a statement sent on a connection that had already ended. */
const NOT_QUERYABLE = /Client has encountered a connection error and is not queryable/;

/** Whether `error` may go away on a fresh connection (the server restarting, a dropped link). */
export function isTransient(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string" && (TRANSIENT_CODES.has(e.code) || e.code.startsWith("ECONN")))
    return true;
  const message = typeof e?.message === "string" ? e.message : "";
  return /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed/i.test(
    message,
  );
}

/** How each connection ended, when it did: the first error it raised. */
const ended = new WeakMap<pg.ClientBase, Error>();
/** The connections {@link hear} listens to. */
const heard = new WeakSet<pg.ClientBase>();

/**
 * Listens to `client`'s `'error'` event for as long as it lives (once per connection), and
 * returns it: the first error is recorded (`hasEnded`), none ends the process. For every
 * connection the pool opens, and for one held outside a transaction, such as the group
 * committer's (the pool listens only to its idle ones, and a pool of the caller's may hold
 * connections it opened before the store listened to it).
 */
export function hear<C extends pg.ClientBase>(client: C): C {
  if (heard.has(client)) return client;
  heard.add(client);
  client.on("error", (error: Error) => {
    if (!ended.has(client)) ended.set(client, error);
  });
  return client;
}

/**
 * Makes every connection of `pool` heard: the pool's own `'error'` (an idle connection that
 * ended) and each new connection's, from the moment the pool hands it out. A connection can end
 * before its borrower had a chance to listen (a FATAL in the same packet as the answer to its
 * start-up), and one that ends is then discarded by the pool; its failure reaches the caller as
 * the rejection of the call that used it. Returns what stops listening to the pool (its
 * connections keep their listener, which only keeps quiet).
 */
export function hearConnectionErrors(pool: pg.Pool): () => void {
  const quiet = () => {};
  const onConnect = (client: pg.PoolClient) => void hear(client);
  pool.on("error", quiet);
  pool.on("connect", onConnect);
  return () => {
    pool.off("error", quiet);
    pool.off("connect", onConnect);
  };
}

/** Whether `client`'s connection ended (it raised an error since the pool handed it out). */
export function hasEnded(client: pg.ClientBase): boolean {
  return ended.has(client);
}

/** Runs `work` in one transaction on a connection of `pool`; rolls back when it throws. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  // The connection's own end, heard while we hold it; the pending statement rejects as well.
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost ??= error;
  };
  client.on("error", onError);
  let broken = false;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    // A FATAL right after COMMIT's answer changes nothing: the commit is done.
    return result;
  } catch (error) {
    lost ??= ended.get(client);
    broken = lost !== undefined || isTransient(error);
    if (!broken) await client.query("ROLLBACK").catch(() => {});
    // pg's "not queryable" only says the connection went before the statement; how it went
    // (a FATAL from the server, a reset) is what the caller needs to read.
    throw lost !== undefined && NOT_QUERYABLE.test((error as Error).message) ? lost : error;
  } finally {
    client.removeListener("error", onError);
    // Released with the error, the pool destroys the client and listens to it again itself.
    client.release(broken ? (lost ?? true) : undefined);
  }
}
