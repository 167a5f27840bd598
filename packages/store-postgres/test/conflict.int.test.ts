/**
 * One writer per session: a live lease elsewhere refuses the load; without a lease, or once a
 * lease passed on, the writer that got in first wins and the other fails with
 * `SessionConflictError`, changes nothing, and its manager refuses every further write.
 */
import {
  createDeterministicEnv,
  SessionConflictError,
  SessionManager,
  SessionStoreFailedError,
} from "@pi-sessions/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate, PostgresSessionStore, SessionLeasedError } from "../src/index.js";
import { connectStore, freshSchema, pgUrl } from "./support/store.js";

const CWD = "/work/project";
const user = (content: string) => ({ role: "user" as const, content, timestamp: 1 });
let a: PostgresSessionStore;
let b: PostgresSessionStore;

beforeAll(async () => {
  a = await connectStore({ owner: "host-a" });
  b = await PostgresSessionStore.connect({
    connectionString: pgUrl(),
    schema: a.schema,
    owner: "host-b",
  });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

/** A written session of store `a`, its manager still open. */
async function written(): Promise<SessionManager> {
  const sm = SessionManager.withStore(a, CWD);
  sm.appendMessage(user("first"));
  await sm.flush();
  return sm;
}

const lines = async (id: string) =>
  (
    await a.pool.query(`SELECT seq, line FROM ${a.s}.entries WHERE session_id = $1 ORDER BY seq`, [
      id,
    ])
  ).rows;

describe("one writer per session", () => {
  it("a live lease elsewhere refuses the load and names its holder; once released, it loads", async () => {
    const sm = await written();
    const error = await b.load(sm.getSessionId()).catch((e) => e);
    expect(error).toBeInstanceOf(SessionLeasedError);
    expect(error.message).toContain("host-a");
    sm.close();
    await a.close().catch(() => {});
    a = await PostgresSessionStore.connect({
      connectionString: pgUrl(),
      schema: b.schema,
      owner: "host-a",
    });
    const other = await b.openSession(sm.getSessionId());
    other.appendMessage(user("from b"));
    await other.flush();
    other.close();
  });

  it("without leases, the writer that got in first wins; the other fails, writes nothing, and stays failed", async () => {
    const x = await PostgresSessionStore.connect({
      connectionString: pgUrl(),
      schema: a.schema,
      lease: false,
    });
    const y = await PostgresSessionStore.connect({
      connectionString: pgUrl(),
      schema: a.schema,
      lease: false,
    });
    try {
      const first = SessionManager.withStore(x, CWD);
      first.appendMessage(user("first"));
      await first.flush();
      const id = first.getSessionId();
      const late = await y.openSession(id);
      first.appendMessage(user("x wins"));
      await first.flush();
      late.appendMessage(user("y loses"));
      const failure = await late.flush().catch((e) => e);
      expect(failure).toBeInstanceOf(SessionConflictError);
      expect(failure.message).toContain("another writer appended line 2 first");
      expect(() => late.appendMessage(user("refused"))).toThrow(SessionStoreFailedError);
      expect(() => late.appendMessage(user("refused"))).toThrow(/another writer appended line 2/);
      const stored = await lines(id);
      expect(stored.map((r) => JSON.parse(r.line).message?.content ?? "header")).toEqual([
        "header",
        "first",
        "x wins",
      ]);
    } finally {
      await x.close();
      await y.close();
    }
  });

  it("a lease that expired and passed on fences off its old holder", async () => {
    const short = await PostgresSessionStore.connect({
      connectionString: pgUrl(),
      schema: a.schema,
      owner: "slow-host",
      lease: { ttlMs: 1 },
    });
    try {
      const slow = SessionManager.withStore(short, CWD);
      slow.appendMessage(user("first"));
      await slow.flush();
      await new Promise((r) => setTimeout(r, 20));
      const taker = await b.openSession(slow.getSessionId());
      taker.appendMessage(user("b took over"));
      await taker.flush();
      slow.appendMessage(user("too late"));
      await expect(slow.flush()).rejects.toThrow(/writer lease passed to host-b/);
      expect((await lines(slow.getSessionId())).length).toBe(3);
      taker.close();
    } finally {
      await short.close();
    }
  });

  it("two new sessions with the same id: the second create is a conflict", async () => {
    const one = SessionManager.withStore(a, CWD, { env: createDeterministicEnv({ seed: 99 }) });
    const two = SessionManager.withStore(b, CWD, { env: createDeterministicEnv({ seed: 99 }) });
    expect(two.getSessionId()).toBe(one.getSessionId());
    one.appendMessage(user("one"));
    await one.flush();
    two.appendMessage(user("two"));
    await expect(two.flush()).rejects.toThrow(/exists already/);
    expect((await lines(one.getSessionId())).map((r) => r.line).join("\n")).not.toContain('"two"');
    one.close();
  });

  it("opening a location that was not loaded says to load it first", () => {
    const sm = SessionManager.withStore(a, CWD);
    expect(() => sm.setSessionFile(`${a.dir}/nothing-loaded`)).toThrow(/must be loaded before/);
  });
});

describe("migrations", () => {
  it("a current schema is left as it is; hosts migrating a new schema at once apply each version once", async () => {
    expect(await migrate(a.pool, a.schema)).toEqual([]);
    const schema = freshSchema("m");
    const stores = await Promise.all(
      [1, 2, 3].map(() => PostgresSessionStore.connect({ connectionString: pgUrl(), schema })),
    );
    const versions = await stores[0]?.pool.query(
      `SELECT version FROM "${schema}".schema_migrations`,
    );
    expect(versions?.rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
    for (const s of stores) await s.close();
  });
});
