/**
 * Group commit: appends of many sessions share one statement and one commit (the rows carry
 * one transaction id, `xmin`), a session's queued appends go as one group, and each group
 * keeps its own checks: a rejected group changes nothing and fails only its own manager, a
 * group the server refuses for another reason fails alone once the round is split, and under
 * any interleaving of writers every acknowledged append is stored exactly once.
 */
import { SessionConflictError, SessionManager, SessionStoreFailedError } from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { blockedBy, heldClient } from "./support/row-locks.js";
import { connectStore, pgUrl } from "./support/store.js";

/** The property's run count (`FC_RUNS` honoured), named in its title. */
const RUNS = fcOptions(15);

const CWD = "/work/group-commit";
const user = (content: string) => ({ role: "user" as const, content, timestamp: 1 });
let a: PostgresSessionStore;
let b: PostgresSessionStore;

beforeAll(async () => {
  // Without leases, so that two writers can meet on one session and the seq decides. `a`
  // sends one round at a time; `b` has the default, up to four rounds on the wire.
  a = await connectStore({ lease: false, groupCommit: { maxInFlight: 1 } });
  b = await PostgresSessionStore.connect({
    connectionString: pgUrl(),
    schema: a.schema,
    lease: false,
  });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

/** A written session of `store`, its manager open. */
async function written(store: PostgresSessionStore, text = "first"): Promise<SessionManager> {
  const sm = SessionManager.withStore(store, CWD);
  sm.appendMessage(user(text));
  await sm.flush();
  return sm;
}

/** The message texts of a session and the transaction ids of its lines after `from`. */
async function stored(sm: SessionManager, from = 0) {
  const r = await a.pool.query<{ line: string; xmin: string; seq: string }>(
    `SELECT line, xmin::text AS xmin, seq FROM ${a.s}.entries WHERE session_id = $1 ORDER BY seq`,
    [sm.getSessionId()],
  );
  const after = r.rows.filter((x) => Number(x.seq) >= from);
  return {
    texts: r.rows.flatMap((x) => JSON.parse(x.line).message?.content ?? []),
    xmins: new Set(after.map((x) => x.xmin)),
  };
}

/** The commits that stored one append of each of `n` written sessions, made at once. */
async function commitsOfAppendsAtOnce(store: PostgresSessionStore, n: number): Promise<number> {
  const managers: SessionManager[] = [];
  for (let i = 0; i < n; i++) managers.push(await written(store));
  for (const [i, sm] of managers.entries()) sm.appendMessage(user(`together ${i}`));
  await Promise.all(managers.map((sm) => sm.flush()));
  const xmins = new Set<string>();
  for (const sm of managers) for (const x of (await stored(sm, 2)).xmins) xmins.add(x);
  for (const sm of managers) sm.close();
  return xmins.size;
}

/**
 * A line inserted at `seq` of session `id` as a leased writer's fast append inserts it (under
 * a share lock of the session row), its transaction held open; `commitOnceWaitedFor` commits
 * it once a statement of the store waits on it (`pending`: the call that must wait).
 */
async function strayHeld(id: string, seq: number) {
  const held = await heldClient(
    `WITH locked AS (SELECT id FROM ${a.s}.sessions WHERE id = $1 FOR SHARE)
     INSERT INTO ${a.s}.entries (session_id, seq, line)
     SELECT id, $2, '{"stray":true}' FROM locked`,
    [id, seq],
  );
  return {
    async commitOnceWaitedFor(pending: Promise<unknown>) {
      await blockedBy(a, held.pid, pending);
      await held.commit();
    },
  };
}

describe("group commit", () => {
  it("appends of several sessions made at once go in one statement and one commit", async () => {
    expect(await commitsOfAppendsAtOnce(a, 3)).toBe(1);
  });

  it("with rounds free on the wire, what is waiting still goes as one round, not shared among them", async () => {
    // One statement and commit per round costs both sides about as much as its rows: the
    // groups waiting together are not spread over the free connections.
    expect(await commitsOfAppendsAtOnce(b, 4)).toBe(1);
  });

  it("a round cut off by a transient fault is tried again as one round, not one per group", async () => {
    const [x, y, z] = [await written(a, "x"), await written(a, "y"), await written(a, "z")];
    // y's session row held: the round's statement waits on it, and its backend is ended there.
    const held = await heldClient(`SELECT 1 FROM ${a.s}.sessions WHERE id = $1 FOR UPDATE`, [
      y.getSessionId(),
    ]);
    x.appendMessage(user("x 2"));
    y.appendMessage(user("y 2"));
    z.appendMessage(user("z 2"));
    const flushed = Promise.allSettled([x.flush(), y.flush(), z.flush()]);
    await blockedBy(a, held.pid, flushed);
    await b.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
      [held.pid],
    );
    await held.commit();
    expect((await flushed).map((o) => o.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    // Each group waited on a timer of its own; the retry went as one round all the same.
    const xmins = new Set<string>();
    for (const sm of [x, y, z]) for (const v of (await stored(sm, 2)).xmins) xmins.add(v);
    expect(xmins.size).toBe(1);
    for (const sm of [x, y, z]) sm.close();
  });

  it("a session's queued burst of ten appends is one commit", async () => {
    const sm = await written(a);
    for (let i = 0; i < 10; i++) sm.appendMessage(user(`burst ${i}`));
    await sm.flush();
    const { texts, xmins } = await stored(sm, 2);
    expect(texts).toEqual(["first", ...Array.from({ length: 10 }, (_, i) => `burst ${i}`)]);
    expect(xmins.size).toBe(1);
    sm.close();
  });

  it("a rejected group changes nothing and fails only its own manager; the others of its commit are stored", async () => {
    const [x, y, z] = [await written(a, "x"), await written(a, "y"), await written(a, "z")];
    // Another writer takes y's next place first: y's group is refused at its seq.
    const other = await b.openSession(y.getSessionId());
    other.appendMessage(user("y by another writer"));
    await other.flush();
    other.close();
    x.appendMessage(user("x 2"));
    y.appendMessage(user("y 2"));
    y.appendMessage(user("y 3"));
    z.appendMessage(user("z 2"));
    const [fx, fy, fz] = await Promise.allSettled([x.flush(), y.flush(), z.flush()]);
    expect([fx.status, fz.status]).toEqual(["fulfilled", "fulfilled"]);
    expect(fy.status).toBe("rejected");
    const reason = (fy as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(SessionConflictError);
    expect(reason.message).toMatch(/another writer appended line 2 first/);
    expect(() => y.appendMessage(user("refused"))).toThrow(SessionStoreFailedError);
    expect((await stored(y)).texts).toEqual(["y", "y by another writer"]);
    expect((await stored(x)).texts).toEqual(["x", "x 2"]);
    expect((await stored(z)).texts).toEqual(["z", "z 2"]);
    // x and z went in one commit, y's refusal notwithstanding.
    const both = new Set([...(await stored(x, 2)).xmins, ...(await stored(z, 2)).xmins]);
    expect(both.size).toBe(1);
    for (const sm of [x, y, z]) sm.close();
  });

  it("a group the server refuses for another reason fails alone: the round is split, the others are stored", async () => {
    const [x, damaged, z] = [await written(a, "x"), await written(a, "d"), await written(a, "z")];
    // A rule the damaged session's next line breaks (an operator's constraint, a row around
    // the store): the statement fails on it, for the whole round.
    const rule = `damaged_${Date.now()}`;
    await a.pool.query(
      `ALTER TABLE ${a.s}.entries ADD CONSTRAINT ${rule}
         CHECK (session_id <> '${damaged.getSessionId()}' OR seq < 2) NOT VALID`,
    );
    try {
      x.appendMessage(user("x 2"));
      damaged.appendMessage(user("d 2"));
      z.appendMessage(user("z 2"));
      const [fx, fd, fz] = await Promise.allSettled([x.flush(), damaged.flush(), z.flush()]);
      expect([fx.status, fd.status, fz.status]).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect((fd as PromiseRejectedResult).reason.message).toMatch(/violates check constraint/);
    } finally {
      await a.pool.query(`ALTER TABLE ${a.s}.entries DROP CONSTRAINT ${rule}`);
    }
    expect((await stored(x)).texts).toEqual(["x", "x 2"]);
    expect((await stored(z)).texts).toEqual(["z", "z 2"]);
    expect((await stored(damaged)).texts).toEqual(["d"]);
    for (const sm of [x, damaged, z]) sm.close();
  });

  it("a line inserted at a group's seq after its round began (unique violation): the round is split, that group gets a conflict, the others are stored", async () => {
    const [x, taken, z] = [await written(a, "x"), await written(a, "t"), await written(a, "z")];
    // A leased writer's line goes in under a share lock of its session row, without updating
    // it: held open here, the round waits on that row, then finds the line's key taken.
    const held = await strayHeld(taken.getSessionId(), 2);
    x.appendMessage(user("x 2"));
    taken.appendMessage(user("t 2"));
    z.appendMessage(user("z 2"));
    const flushed = Promise.allSettled([x.flush(), taken.flush(), z.flush()]);
    await held.commitOnceWaitedFor(flushed);
    const [fx, ft, fz] = await flushed;
    expect([fx.status, ft.status, fz.status]).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const reason = (ft as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(SessionConflictError);
    expect(reason.message).toMatch(/another writer appended line 2 first/);
    expect((await stored(x)).texts).toEqual(["x", "x 2"]);
    expect((await stored(z)).texts).toEqual(["z", "z 2"]);
    // Split: the two stored groups went in commits of their own, not in the failed round's.
    const both = new Set([...(await stored(x, 2)).xmins, ...(await stored(z, 2)).xmins]);
    expect(both.size).toBe(2);
    for (const sm of [x, taken, z]) sm.close();
  });

  it("a lone group whose line's seq is taken after its statement began gets a conflict, not the server's error", async () => {
    const taken = await written(a, "t");
    const held = await strayHeld(taken.getSessionId(), 2);
    taken.appendMessage(user("t 2"));
    const flushed = taken.flush().catch((e: unknown) => e);
    await held.commitOnceWaitedFor(flushed);
    const reason = await flushed;
    expect(reason).toBeInstanceOf(SessionConflictError);
    expect((reason as Error).message).toMatch(/another writer appended line 2 first/);
    expect((await stored(taken)).texts).toEqual(["t"]);
    taken.close();
  });

  it(`any interleaving of two writers over shared sessions: every acknowledged append stored once, nothing rejected stored, one chain each (numRuns ${RUNS.numRuns})`, async () => {
    // A step: one writer appends a burst to one session; steps of one turn flush together.
    const step = fc.record({
      writer: fc.constantFrom(0, 1),
      session: fc.nat({ max: 2 }),
      burst: fc.integer({ min: 1, max: 3 }),
    });
    // A writer's manager appears once a turn: its flush then answers for exactly its burst.
    let refused = 0;
    const turn = fc.uniqueArray(step, {
      minLength: 1,
      maxLength: 4,
      selector: (x) => `${x.writer}:${x.session}`,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(turn, { minLength: 1, maxLength: 6 }), async (turns) => {
        const stores = [a, b];
        const first = [await written(a, "s0"), await written(a, "s1"), await written(a, "s2")];
        const ids = first.map((sm) => sm.getSessionId());
        for (const sm of first) sm.close();
        // Each writer's manager per session, opened again after it failed.
        const open = new Map<string, SessionManager>();
        const managerOf = async (w: number, s: number) => {
          const key = `${w}:${s}`;
          const sm = open.get(key);
          if (sm) return sm;
          const fresh = await (stores[w] as PostgresSessionStore).openSession(ids[s] as string);
          open.set(key, fresh);
          return fresh;
        };
        const acked: string[] = [];
        const rejected: string[] = [];
        let n = 0;
        for (const t of turns) {
          const pending: { key: string; sm: SessionManager; texts: string[] }[] = [];
          for (const { writer, session, burst } of t) {
            const sm = await managerOf(writer, session);
            const texts = Array.from({ length: burst }, () => `w${writer}s${session}#${n++}`);
            for (const text of texts) sm.appendMessage(user(text));
            pending.push({ key: `${writer}:${session}`, sm, texts });
          }
          const outcomes = await Promise.allSettled(pending.map((p) => p.sm.flush()));
          const failed = new Set<string>();
          outcomes.forEach((o, i) => {
            const p = pending[i] as (typeof pending)[number];
            if (o.status === "rejected") failed.add(p.key);
          });
          for (const p of pending) (failed.has(p.key) ? rejected : acked).push(...p.texts);
          for (const key of failed) {
            open.get(key)?.close();
            open.delete(key);
          }
        }
        for (const sm of open.values()) sm.close();
        const all: string[] = [];
        for (const id of ids) {
          const rows = await a.pool.query<{ line: string; seq: string }>(
            `SELECT line, seq FROM ${a.s}.entries WHERE session_id = $1 ORDER BY seq`,
            [id],
          );
          const records = rows.rows.map((r) => JSON.parse(r.line));
          // One chain: every entry's parent is the entry before it; seqs have no gap.
          expect(rows.rows.map((r) => Number(r.seq))).toEqual(rows.rows.map((_, i) => i));
          for (let i = 2; i < records.length; i++) {
            expect(records[i].parentId).toBe(records[i - 1].id);
          }
          all.push(...records.slice(2).map((r) => r.message.content as string));
        }
        expect(new Set(all).size).toBe(all.length);
        expect([...all].sort()).toEqual([...acked].sort());
        for (const r of rejected) expect(all).not.toContain(r);
        refused += rejected.length;
      }),
      RUNS,
    );
    // The writers did meet: some appends lost their place to the other writer.
    expect(refused).toBeGreaterThan(0);
  });
});
