/**
 * Faults between the store and the server: a connection dropped mid-append
 * (`pg_terminate_backend` while the append waits on a row lock), a statement timeout, and a
 * server restart with an append in flight. The database never holds part of an entry, a
 * retried append is stored once, and a write that fails for good leaves the manager failed
 * with the cause in its message.
 */
import { SessionManager, SessionStoreFailedError } from "@pi-sessions/core";
import { type PostgresServer, startPostgres } from "@pi-sessions/test-utils/pg-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore, type PostgresStoreOptions } from "../src/index.js";
import { serialisedRow } from "../src/lines.js";
import { startFaultProxy } from "./support/fault-proxy.js";
import { commitOnPool, unleasedGroup } from "./support/groups.js";
import { freshSchema, pgUrl } from "./support/store.js";

const CWD = "/work/project";
const user = (content: string) => ({ role: "user" as const, content, timestamp: 1 });
let admin: pg.Pool;
let apps = 0;

beforeAll(() => {
  admin = new pg.Pool({ connectionString: pgUrl() });
  admin.on("error", () => {});
});
afterAll(() => admin.end());

/** A store whose connections carry an application name of their own, and a written session. */
async function storeWithSession(options: Partial<PostgresStoreOptions> = {}) {
  const applicationName = `faults-${process.pid}-${apps++}`;
  const store = await PostgresSessionStore.connect({
    connectionString: pgUrl(),
    schema: freshSchema("f"),
    applicationName,
    ...options,
  });
  const sm = SessionManager.withStore(store, CWD);
  sm.appendMessage(user("first"));
  await sm.flush();
  return { store, sm, applicationName, id: sm.getSessionId() };
}

/** Holds the session row locked, so the next append waits on it. */
async function lockSession(store: PostgresSessionStore, id: string): Promise<pg.PoolClient> {
  const client = await admin.connect();
  await client.query("BEGIN");
  await client.query(`SELECT 1 FROM ${store.s}.sessions WHERE id = $1 FOR UPDATE`, [id]);
  return client;
}

/** The pid of the store's backend that waits on a lock, once it does. */
async function waitingBackend(applicationName: string): Promise<number> {
  for (;;) {
    const r = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
      [applicationName],
    );
    if (r.rows[0]) return r.rows[0].pid;
    await new Promise((res) => setTimeout(res, 10));
  }
}

const contents = async (store: PostgresSessionStore, id: string) =>
  (
    await store.pool.query<{ line: string }>(
      `SELECT line FROM ${store.s}.entries WHERE session_id = $1 ORDER BY seq`,
      [id],
    )
  ).rows.map((r) => JSON.parse(r.line).message?.content ?? "header");

describe("faults", () => {
  it("a connection dropped mid-append: retried on a new connection, stored once", async () => {
    const { store, sm, applicationName, id } = await storeWithSession();
    const lock = await lockSession(store, id);
    sm.appendMessage(user("second"));
    await admin.query("SELECT pg_terminate_backend($1)", [await waitingBackend(applicationName)]);
    await lock.query("ROLLBACK");
    lock.release();
    await sm.flush();
    sm.appendMessage(user("third"));
    await sm.flush();
    expect(await contents(store, id)).toEqual(["header", "first", "second", "third"]);
    sm.close();
    await store.close();
  });

  it("a dropped connection with no retries left: the manager fails, saying why, and nothing was stored", async () => {
    const { store, sm, applicationName, id } = await storeWithSession({ retry: { retries: 0 } });
    const lock = await lockSession(store, id);
    sm.appendMessage(user("lost"));
    await admin.query("SELECT pg_terminate_backend($1)", [await waitingBackend(applicationName)]);
    await lock.query("ROLLBACK");
    lock.release();
    await expect(sm.flush()).rejects.toThrow(/terminat/i);
    expect(() => sm.appendMessage(user("refused"))).toThrow(SessionStoreFailedError);
    expect(() => sm.appendMessage(user("refused"))).toThrow(
      /failed to persist an earlier entry: .*terminat/i,
    );
    expect(await contents(store, id)).toEqual(["header", "first"]);
    sm.close();
    await store.close();
  });

  it("a retry that finds its own line in place (the commit went through, its answer was lost) is done", async () => {
    const { store, sm, id } = await storeWithSession();
    sm.close();
    const row = serialisedRow(
      2,
      JSON.stringify({ type: "custom", id: "c0ffee00", parentId: null, timestamp: "t" }),
    );
    const location = store.locationOf({ id } as never);
    const group = unleasedGroup(id, location, row);
    const commit = (retrying: boolean) => commitOnPool(store.pool, store.s, [{ group, retrying }]);
    expect(await commit(false)).toEqual([undefined]);
    expect(await commit(true)).toEqual([undefined]);
    const [verdict] = await commit(false);
    expect(verdict?.message).toMatch(/another writer appended line 2 first/);
    expect((await contents(store, id)).length).toBe(3);
    await store.close();
  });

  it("a statement timeout, every retry too: the manager fails, saying why; nothing partial is stored", async () => {
    // The session is set up without a timeout; only the store that meets the lock has one, and
    // a long one: the blocked append waits for ever, so any timeout ends it, while the
    // store's own start-up statements must not hit it on a loaded machine.
    const setup = await storeWithSession();
    const id = setup.id;
    setup.sm.close();
    await setup.store.close();
    const store = await PostgresSessionStore.connect({
      connectionString: pgUrl(),
      schema: setup.store.schema,
      statementTimeoutMs: 2_000,
      retry: { retries: 2, delayMs: 10 },
    });
    const sm = await store.openSession(id);
    const lock = await lockSession(store, id);
    sm.appendMessage(user("timed out"));
    await expect(sm.flush()).rejects.toThrow(/statement timeout/);
    expect(() => sm.appendMessage(user("refused"))).toThrow(/statement timeout/);
    await lock.query("ROLLBACK");
    lock.release();
    expect(await contents(store, id)).toEqual(["header", "first"]);
    sm.close();
    const again = await store.openSession(id);
    again.appendMessage(user("after"));
    await again.flush();
    expect(await contents(store, id)).toEqual(["header", "first", "after"]);
    again.close();
    await store.close();
  });
});

/** A written session, and a store on it whose every transaction starts up through a proxy. */
async function behindProxy(retry: PostgresStoreOptions["retry"]) {
  const writer = await storeWithSession();
  writer.sm.close();
  await writer.store.close();
  const proxy = await startFaultProxy(pgUrl());
  // Every transaction on a connection of its own, so each one starts up through the proxy.
  const pool = new pg.Pool({ connectionString: proxy.url, maxUses: 1 });
  const schema = writer.store.schema;
  const store = await PostgresSessionStore.connect({ pool, schema, ...(retry ? { retry } : {}) });
  return { writer, proxy, pool, store };
}

describe("a connection that ends as the pool hands it out", () => {
  // The connection's end arrives in the packet that completes its start-up, so the client
  // raises it before the caller of pool.connect() could listen: unheard, it ends the process.
  it("inside openSession and a first write: retried, so both work; the process lives", async () => {
    const { writer, proxy, pool, store } = await behindProxy({ retries: 3, delayMs: 10 });
    proxy.endAtStartup(2);
    const sm = await store.openSession(writer.id);
    expect(proxy.ended).toBe(2);
    sm.appendMessage(user("opened"));
    await sm.flush();
    sm.close();
    proxy.endAtStartup(2);
    const created = SessionManager.withStore(store, CWD);
    created.appendMessage(user("created"));
    await created.flush();
    expect(proxy.ended).toBe(4);
    created.close();
    expect(await contents(store, writer.id)).toEqual(["header", "first", "opened"]);
    expect(await contents(store, created.getSessionId())).toEqual(["header", "created"]);
    await store.close();
    await pool.end();
    await proxy.close();
  });

  it("without retries: openSession rejects with the server's words, and the next call works", async () => {
    const { writer, proxy, pool, store } = await behindProxy({ retries: 0 });
    proxy.endAtStartup(1);
    await expect(store.openSession(writer.id)).rejects.toThrow(
      /^terminating connection due to administrator command$/,
    );
    const sm = await store.openSession(writer.id);
    expect(sm.getEntries()).toHaveLength(1);
    sm.close();
    proxy.endAtStartup(1);
    const created = SessionManager.withStore(store, CWD);
    created.appendMessage(user("lost"));
    await expect(created.flush()).rejects.toThrow(/terminating connection/);
    created.close();
    const again = SessionManager.withStore(store, CWD);
    again.appendMessage(user("created"));
    await again.flush();
    again.close();
    expect(await contents(store, again.getSessionId())).toEqual(["header", "created"]);
    await store.close();
    await pool.end();
    await proxy.close();
  });
});

describe("a server restart", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server.stop());

  it("appends queued while the server restarts are stored once it is back, in order", async () => {
    const store = await PostgresSessionStore.connect({
      connectionString: server.url,
      retry: { retries: 12, delayMs: 50 },
    });
    const sm = SessionManager.withStore(store, CWD);
    sm.appendMessage(user("before"));
    await sm.flush();
    let failedWhileDown = 0;
    await server.restart(async () => {
      // Appended while no server listens: the write fails, and is retried until it is back.
      sm.appendMessage(user("during"));
      sm.appendMessage(user("during 2"));
      const probe = new pg.Client({ connectionString: server.url });
      await probe.connect().catch(() => failedWhileDown++);
      await probe.end().catch(() => {});
      await new Promise((r) => setTimeout(r, 200));
    });
    expect(failedWhileDown).toBe(1);
    sm.appendMessage(user("after"));
    await sm.flush();
    expect(await contents(store, sm.getSessionId())).toEqual([
      "header",
      "before",
      "during",
      "during 2",
      "after",
    ]);
    sm.close();
    await store.close();
  });
});
