/**
 * The group committer's kept connection: a lone writer's rounds go on the connection of the
 * round before instead of a checkout each, but the store never holds what others need (a
 * pool of one, a quiet store), and a kept connection that the server ended is not used.
 */
import { SessionManager } from "@pi-sessions/core";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { PostgresSessionStore } from "../src/index.js";
import { hasEnded } from "../src/transaction.js";
import { connectStore, pgUrl } from "./support/store.js";

const CWD = "/work/kept";
const user = (content: string) => ({ role: "user" as const, content, timestamp: 1 });
const stores: PostgresSessionStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

/** A store of this file, closed at its end. */
async function store(options: Parameters<typeof connectStore>[0] = {}) {
  const s = await connectStore(options);
  stores.push(s);
  return s;
}

/** Connections of `pool` checked out (not idle in the pool). */
const checkedOut = (pool: pg.Pool) => pool.totalCount - pool.idleCount;

/** Resolves once `done()` holds, polling; rejects after `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `work`, or a rejection after `ms` (a wait that never ends fails the test saying so). */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Ends every backend of `applicationName` from a connection of its own; how many. */
async function terminate(applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  try {
    const ended = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
      [applicationName],
    );
    return ended.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/**
 * Writes two lines (the second's round keeps its connection, `kept()`), ends the backends of
 * `applicationName`, waits until the store heard its connection end (the FATAL read, the
 * error event emitted) and writes a third: all three are stored.
 */
async function endKeptThenAppend(
  s: PostgresSessionStore,
  applicationName: string,
  kept: () => pg.PoolClient,
): Promise<void> {
  const sm = SessionManager.withStore(s, CWD);
  sm.appendMessage(user("first"));
  await sm.flush();
  sm.appendMessage(user("kept"));
  await sm.flush();
  expect(checkedOut(s.pool)).toBe(1);
  expect(await terminate(applicationName)).toBeGreaterThan(0);
  await until(() => hasEnded(kept()), 10_000);
  sm.appendMessage(user("after"));
  await sm.flush();
  expect(await texts(s, sm)).toEqual(["first", "kept", "after"]);
  sm.close();
}

/** The texts of a session's stored messages, in order. */
async function texts(s: PostgresSessionStore, sm: SessionManager): Promise<string[]> {
  const r = await s.pool.query<{ line: string }>(
    `SELECT line FROM ${s.s}.entries WHERE session_id = $1 ORDER BY seq`,
    [sm.getSessionId()],
  );
  return r.rows.flatMap((x) => JSON.parse(x.line).message?.content ?? []);
}

describe("the committer's kept connection", () => {
  it("a lone writer's rounds keep one connection between them; a quiet store gives it back", async () => {
    const s = await store();
    const sm = SessionManager.withStore(s, CWD);
    sm.appendMessage(user("first"));
    await sm.flush();
    for (let i = 0; i < 5; i++) {
      sm.appendMessage(user(`m${i}`));
      await sm.flush();
      // The append's round gave its connection to the committer, not to the pool.
      expect(checkedOut(s.pool)).toBe(1);
    }
    // No round for a second or two: back in the pool, nothing of it checked out.
    await until(() => checkedOut(s.pool) === 0, 5_000);
    sm.appendMessage(user("after"));
    await sm.flush();
    expect(await texts(s, sm)).toEqual(["first", "m0", "m1", "m2", "m3", "m4", "after"]);
    sm.close();
  });

  it("a pool of one connection is never held: appends, a new session and an open all go through", async () => {
    const pool = new pg.Pool({ connectionString: pgUrl(), max: 1 });
    const s = await store({ pool });
    const one = SessionManager.withStore(s, CWD);
    one.appendMessage(user("one"));
    await within(10_000, one.flush());
    one.appendMessage(user("one again"));
    await within(10_000, one.flush());
    // Given back at once, not after the sweep: the pool had no room for another.
    expect(checkedOut(pool)).toBe(0);
    // A new session's first write and an open are transactions: each needs the one connection.
    const two = SessionManager.withStore(s, CWD);
    two.appendMessage(user("two"));
    await within(10_000, two.flush());
    const location = one.getSessionFile() as string;
    one.close();
    const reopened = await within(10_000, s.openSession(location));
    reopened.appendMessage(user("reopened"));
    await within(10_000, reopened.flush());
    expect(await texts(s, reopened)).toEqual(["one", "one again", "reopened"]);
    reopened.close();
    two.close();
    await s.close();
    await pool.end();
  });

  it("a pool that fills up after the committer kept a connection: callers wait for it no longer than a sweep", async () => {
    // Two connections; a caller waiting longer than 1 s for one fails (before the sweep looked
    // for waiting callers, the kept connection came back after 1-2 s).
    const pool = new pg.Pool({ connectionString: pgUrl(), max: 2, connectionTimeoutMillis: 1_000 });
    const s = await store({ pool });
    const sm = SessionManager.withStore(s, CWD);
    sm.appendMessage(user("first"));
    await sm.flush();
    sm.appendMessage(user("kept"));
    await sm.flush();
    // The application takes the pool's other connection: the pool is full, nobody waits yet.
    const mine = await pool.connect();
    expect(checkedOut(pool)).toBe(2);
    // A query of the application's, and the store's own transactions, get the kept one.
    expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    const two = SessionManager.withStore(s, CWD);
    two.appendMessage(user("two"));
    await two.flush();
    const location = sm.getSessionFile() as string;
    sm.close();
    await s.released();
    const reopened = await s.openSession(location);
    reopened.appendMessage(user("reopened"));
    await reopened.flush();
    expect(await texts(s, reopened)).toEqual(["first", "kept", "reopened"]);
    mine.release();
    reopened.close();
    two.close();
    await s.close();
    expect(checkedOut(pool)).toBe(0);
    await pool.end();
  });

  it("a kept connection the server ended is not used: without retries, the next append is stored once, the process lives", async () => {
    const name = `kept-${process.pid}-${Date.now().toString(36)}`;
    // No retries: an append sent on the dead connection would fail the manager.
    const s = await store({ applicationName: name, retry: { retries: 0 } });
    let acquired: pg.PoolClient | undefined;
    s.pool.on("acquire", (client) => {
      acquired = client;
    });
    await endKeptThenAppend(s, name, () => acquired as pg.PoolClient);
  });

  it("a connection the pool had before the store was made, kept and then ended: the process lives, the next append is stored", async () => {
    const name = `kept-early-${process.pid}-${Date.now().toString(36)}`;
    const pool = new pg.Pool({ connectionString: pgUrl(), application_name: name, max: 4 });
    // Connected and back in the pool before the store listens to the pool's new connections.
    const early = await pool.connect();
    early.release();
    const s = await store({ pool, retry: { retries: 0 } });
    // Heard (not an unhandled 'error' ending the worker), so the next round leaves it.
    await endKeptThenAppend(s, name, () => early);
    await s.close();
    // The store's close gave the kept connection back at once: nothing of the pool is out.
    expect(checkedOut(pool)).toBe(0);
    await pool.end();
  });
});
