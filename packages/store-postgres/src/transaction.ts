/**
 * One transaction on a pooled connection, the way every multi-statement write of the store
 * runs: BEGIN, the work, COMMIT; on failure ROLLBACK, and a connection that broke mid-way is
 * dropped from the pool rather than handed to the next caller.
 */
import type pg from "pg";

/** Connection-level failures and cancellations: the statement did not commit, or we cannot know. */
const TRANSIENT_CODES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "57014",
  "53300",
  "08000",
  "08003",
  "08006",
  "08001",
  "08004",
]);

/** Whether `error` may go away on a fresh connection (the server restarting, a dropped link). */
export function isTransient(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string" && (TRANSIENT_CODES.has(e.code) || e.code.startsWith("ECONN")))
    return true;
  const message = typeof e?.message === "string" ? e.message : "";
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(
    message,
  );
}

/** Runs `work` in one transaction on a connection of `pool`; rolls back when it throws. */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    broken = isTransient(error);
    if (!broken) await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release(broken);
  }
}
