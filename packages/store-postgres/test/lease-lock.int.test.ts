/**
 * A lone leased writer's line goes in without updating its session row (the fast path of
 * `append-groups.ts`): its lease is still renewed while it writes and lost when it is idle;
 * a writer fenced out stores nothing, whichever of its append and the take of its lease goes
 * first; a session shortened under a writer never gets a gap; and the session's last write
 * (what a listing shows where a file's mtime would stand) stays exact.
 */
import { SessionConflictError, SessionManager } from "@pi-sessions/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppendGroup, commitGroups } from "../src/append-groups.js";
import { PostgresSessionStore, SessionLeasedError } from "../src/index.js";
import { serialisedRow } from "../src/lines.js";
import { lastWriteSql, NEXT_SEQ_FLOOR, nextSeqSql } from "../src/session-head.js";
import { blockedBy, heldClient, rowVersion } from "./support/row-locks.js";
import { connectStore, pgUrl } from "./support/store.js";

const CWD = "/work/lease-lock";
const user = (content: string) => ({ role: "user" as const, content, timestamp: Date.now() });
let a: PostgresSessionStore;
const others: PostgresSessionStore[] = [];

beforeAll(async () => {
  // The default ttl (30 s): a writer's appends go the fast way for 10 s after each renewal.
  a = await connectStore({ owner: "host-a" });
});
afterAll(async () => {
  for (const s of [a, ...others]) await s.close();
});

/** Another host on `a`'s schema (`owner` the same: the same host started again). */
async function host(owner: string, ttlMs = 30_000): Promise<PostgresSessionStore> {
  const store = await PostgresSessionStore.connect({
    connectionString: pgUrl(),
    schema: a.schema,
    owner,
    lease: { ttlMs },
  });
  others.push(store);
  return store;
}

/** A session written and opened again by `store` (its lease taken by the load). */
async function opened(store = a): Promise<SessionManager> {
  const sm = SessionManager.withStore(store, CWD);
  sm.appendMessage(user("first"));
  await sm.flush();
  sm.close();
  await store.released();
  return store.openSession(sm.getSessionId());
}

const texts = async (id: string) =>
  (
    await a.pool.query<{ line: string }>(
      `SELECT line FROM ${a.s}.entries WHERE session_id = $1 ORDER BY seq`,
      [id],
    )
  ).rows.map((r) => JSON.parse(r.line).message?.content ?? null);

const seqs = async (id: string) =>
  (
    await a.pool.query<{ seq: string }>(
      `SELECT seq FROM ${a.s}.entries WHERE session_id = $1 ORDER BY seq`,
      [id],
    )
  ).rows.map((r) => Number(r.seq));

describe("the writer lease with the fast path", () => {
  it("a lone append inside its lease's renewal window leaves the session row as it is", async () => {
    const sm = await opened();
    const id = sm.getSessionId();
    const before = await rowVersion(a, id);
    sm.appendMessage(user("fast"));
    await sm.flush();
    expect(await rowVersion(a, id)).toBe(before);
    expect(await texts(id)).toEqual([null, "first", "fast"]);
    sm.close();
  });

  it("a writer appending for longer than its ttl keeps its lease; an idle one loses it to another host", async () => {
    // A ttl of 1 s: renewed by an append once a third of it passed.
    const short = await host("host-s", 1_000);
    const b = await host("host-b");
    const busy = await opened(short);
    // Past three ttls, slowly enough that no listing state falls due (that would
    // renew the lease with it: fewer than 64 lines); only the renewal rule keeps the lease.
    // Waits are read from the database, not slept: whatever the scheduling delays, the other
    // host asks right after a renewal the server made (a ttl ahead of it), and the loop ends
    // only once a renewal put the lease two ttls past its first until.
    const id = busy.getSessionId();
    const until = async () =>
      (
        await short.pool.query<{ ms: number }>(
          `SELECT extract(epoch FROM lease_until) * 1000 AS ms FROM ${short.s}.sessions
            WHERE id = $1`,
          [id],
        )
      ).rows[0]?.ms as number;
    const firstUntil = await until();
    let last = firstUntil;
    let renewals = 0;
    for (let n = 0; n < 14; n++) {
      busy.appendMessage(user(`busy ${n}`));
      await busy.flush();
      const now = await until();
      const renewed = now > last;
      last = now;
      if (renewed) renewals++;
      if (renewed && now - firstUntil >= 2_000) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(renewals).toBeGreaterThanOrEqual(3);
    expect(last - firstUntil).toBeGreaterThanOrEqual(2_000);
    // Renewed along the way (by its own appends only): still live, so the other host waits.
    await expect(b.load(id)).rejects.toBeInstanceOf(SessionLeasedError);
    busy.appendMessage(user("still mine"));
    await busy.flush();
    expect((await texts(busy.getSessionId())).at(-1)).toBe("still mine");
    busy.close();

    const idle = await opened(short);
    idle.appendMessage(user("once"));
    await idle.flush();
    // Idle until its lease has run out by the server's clock (polled, not slept).
    while (
      (
        await short.pool.query(
          `SELECT 1 FROM ${short.s}.sessions WHERE id = $1 AND lease_until >= now()`,
          [idle.getSessionId()],
        )
      ).rows.length > 0
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const taken = await b.openSession(idle.getSessionId());
    idle.appendMessage(user("too late"));
    await expect(idle.flush()).rejects.toThrow(/the writer lease passed to host-b/);
    expect(await texts(idle.getSessionId())).toEqual([null, "first", "once"]);
    taken.close();
    idle.close();
  });

  it("a fenced-out writer's fast append is refused with the lease-passed conflict and stores nothing", async () => {
    const sm = await opened();
    const id = sm.getSessionId();
    const restarted = await host("host-a");
    const taken = await restarted.openSession(id);
    const before = await rowVersion(a, id);
    sm.appendMessage(user("fenced"));
    const failure = await sm.flush().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SessionConflictError);
    expect((failure as Error).message).toMatch(/the writer lease passed to host-a/);
    expect(await texts(id)).toEqual([null, "first"]);
    expect(await rowVersion(a, id)).toBe(before);
    taken.close();
    sm.close();
  });

  it("a take of the lease held open: the old writer's fast append waits for it, then is refused", async () => {
    const sm = await opened();
    const id = sm.getSessionId();
    const take = await heldClient(
      `UPDATE ${a.s}.sessions SET lease_owner = 'thief', lease_token = lease_token + 1
        WHERE id = $1`,
      [id],
    );
    sm.appendMessage(user("after the take"));
    const flushed = sm.flush().catch((e: unknown) => e);
    await blockedBy(a, take.pid, flushed);
    await take.commit();
    const failure = await flushed;
    expect(failure).toBeInstanceOf(SessionConflictError);
    expect((failure as Error).message).toMatch(/the writer lease passed to thief/);
    expect(await texts(id)).toEqual([null, "first"]);
    sm.close();
  });

  it("a fast append held open: a take of the lease waits for it (share lock, not key share), and its load sees the line", async () => {
    const sm = await opened();
    const id = sm.getSessionId();
    const lease = { owner: "host-a", token: await tokenOf(id), ttlMs: 1_000 };
    const line = JSON.stringify({
      type: "custom",
      customType: "x",
      id: "f00df00d",
      parentId: null,
      timestamp: new Date().toISOString(),
    });
    const group: AppendGroup = {
      id,
      location: id,
      rows: [serialisedRow(2, line)],
      texts: [null],
      lease,
      state: null,
      renew: false,
    };
    // The fast path's statement, on a connection whose transaction stays open after it.
    const append = await heldClient("SELECT 1", []);
    const sent = await commitGroups(append.client, a.s, [{ group, retrying: false }]);
    expect(sent).toEqual([undefined]);
    const restarted = await host("host-a");
    const loading = restarted.load(id);
    await blockedBy(a, append.pid, loading);
    await append.commit();
    const location = await loading;
    const taken = restarted.open(location);
    expect(taken.entries.map((e) => e.id)).toContain("f00df00d");
    expect(await seqs(id)).toEqual([0, 1, 2]);
    sm.close();
  });

  it("a session shortened under its writer (as a rewrite leaves it, token unchanged): its next append is refused and leaves no gap", async () => {
    const sm = await opened();
    const id = sm.getSessionId();
    for (const t of ["two", "three", "four"]) {
      sm.appendMessage(user(t));
      await sm.flush();
    }
    await a.pool.query(`DELETE FROM ${a.s}.entries WHERE session_id = $1 AND seq >= 3`, [id]);
    await a.pool.query(`UPDATE ${a.s}.sessions SET ${NEXT_SEQ_FLOOR} = 3 WHERE id = $1`, [id]);
    sm.appendMessage(user("past the end"));
    const failure = await sm.flush().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SessionConflictError);
    expect((failure as Error).message).toMatch(/has no line 4 any more/);
    expect(await seqs(id)).toEqual([0, 1, 2]);
    sm.close();
  });

  it("the listing's modified time of a session without activity times is its last write, fast appends included", async () => {
    // No timestamp in the header and no message: the file store shows the file's mtime, its
    // last write; the store shows the later of the row's update and its last line's write.
    const header = JSON.stringify({ type: "session", version: 3, id: "undated-fast", cwd: CWD });
    await a.importBytes(Buffer.from(`${header}\n`, "utf8"));
    const imported = (await a.findById("undated-fast"))?.modified as Date;
    const sm = await a.openSession("undated-fast");
    const before = new Date();
    for (let i = 0; i < 3; i++) {
      sm.appendCustomEntry("note", { i });
      await sm.flush();
    }
    const after = new Date();
    const info = await a.findById("undated-fast");
    const last = await a.pool.query<{ at: Date; row: Date; next: string; stored: string }>(
      `SELECT ${lastWriteSql(a.s, "s")} AS at, updated_at AS row, ${NEXT_SEQ_FLOOR} AS stored,
              ${nextSeqSql(a.s, "s")} AS next
         FROM ${a.s}.sessions s WHERE id = 'undated-fast'`,
    );
    const r = last.rows[0];
    // The appends went the fast way (the row's next seq and update are behind them)...
    expect(Number(r?.stored)).toBeLessThan(Number(r?.next));
    expect(r?.row.getTime()).toBeLessThan(before.getTime() + 1);
    // ...and the listing still shows the last one's time.
    expect(info?.modified).toEqual(r?.at);
    expect(info?.modified.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(info?.modified.getTime()).toBeLessThanOrEqual(after.getTime());
    expect(info?.modified.getTime()).toBeGreaterThan(imported.getTime());
    sm.close();
  });
});

async function tokenOf(id: string): Promise<number> {
  const r = await a.pool.query<{ t: string }>(
    `SELECT lease_token AS t FROM ${a.s}.sessions WHERE id = $1`,
    [id],
  );
  return Number(r.rows[0]?.t);
}
