/**
 * A host on code before migration 4 beside a migrated schema: that code read the session row's
 * next seq as exact, which a fast append leaves behind, so its append would claim a taken seq
 * and its close save a listing state over lines it never read (every later listing counting
 * them twice). Migration 4 renamed the column: each of its statements fails, loudly, and
 * changes nothing. And a schema migrated by code newer than ours is refused, unchanged.
 */
import { SessionManager } from "@pi-sessions/core";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate, PostgresSessionStore } from "../src/index.js";
import {
  oldAppendOne,
  oldLetGo,
  oldLoadRow,
  oldTakeLease,
  toVersion3,
} from "./support/older-code.js";
import { connectStore, pgUrl } from "./support/store.js";

const user = (content: string) => ({ role: "user" as const, content, timestamp: Date.now() });
let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore({ owner: "new-host" });
});
afterAll(async () => {
  await store.pool.query(`DROP SCHEMA ${store.s} CASCADE`);
  await store.close();
});

/** Every row of the store's tables, as text: what "nothing changed" compares. */
async function snapshot(s: PostgresSessionStore): Promise<string[]> {
  const rows = await s.pool.query<{ r: string }>(
    `SELECT 'S' || row_to_json(x)::text AS r FROM ${s.s}.sessions x
     UNION ALL SELECT 'E' || row_to_json(y)::text FROM ${s.s}.entries y
     UNION ALL SELECT 'M' || row_to_json(z)::text FROM ${s.s}.schema_migrations z
     ORDER BY 1`,
  );
  return rows.rows.map((r) => r.r);
}

/** The error `run` rejects with (it must reject). */
async function failure(run: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  const outcome = await run().then(
    () => undefined,
    (e: unknown) => e as { code?: string; message: string },
  );
  expect(outcome, "the older code's statement went through").toBeDefined();
  return outcome as { code?: string; message: string };
}

/** The error PostgreSQL gives a statement naming a column the table no longer has. */
const NO_SUCH_COLUMN = { code: "42703", message: expect.stringMatching(/column "next_seq"/) };

describe("code before migration 4 beside a migrated schema", () => {
  it("its append, load and close fail on the renamed column and change nothing, after fast appends", async () => {
    // A session the new host appended to the fast way (its row's next seq behind its lines),
    // then let go (its lease free, its listing state saved).
    const sm = SessionManager.withStore(store, "/w/older");
    sm.appendMessage(user("m0"));
    await sm.flush();
    sm.close();
    await store.released();
    const reopened = await store.openSession(sm.getSessionId());
    for (const m of ["m1", "m2", "m3"]) {
      reopened.appendMessage(user(m));
      await reopened.flush();
    }
    reopened.close();
    await store.released();
    const id = sm.getSessionId();
    const listed = await store.findById(id);
    expect(listed?.messageCount).toBe(4);
    const before = await snapshot(store);
    const row = (
      await store.pool.query<{ token: string; floor: string; lines: string }>(
        // The next seq's floor under either name (a schema of the code before the rename too).
        `SELECT lease_token AS token,
                coalesce(to_jsonb(s) ->> 'next_seq_floor', to_jsonb(s) ->> 'next_seq') AS floor,
                (SELECT count(*) FROM ${store.s}.entries WHERE session_id = $1) AS lines
           FROM ${store.s}.sessions s WHERE id = $1`,
        [id],
      )
    ).rows[0];
    // The fast appends left the row's next seq behind the lines: what the old code misread.
    expect(Number(row?.floor)).toBeLessThan(Number(row?.lines));

    // Its append at the seq it read (the stale one, which it took for the next).
    const line = JSON.stringify({ type: "custom", customType: "old", id: "0ld0ld01" });
    const append = [id, row?.floor, line, "0ld0ld01", null, "custom", null, null];
    expect(
      await failure(() =>
        store.pool.query(oldAppendOne(store.s), [...append, row?.token, 30_000, null, null]),
      ),
    ).toMatchObject(NO_SUCH_COLUMN);
    // Its load: the lease taken, then the row read, in one transaction (rolled back whole).
    const client: pg.PoolClient = await store.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query(oldTakeLease(store.s), [id, "old-host", 30_000]);
      expect(await failure(() => client.query(oldLoadRow(store.s), [id]))).toMatchObject(
        NO_SUCH_COLUMN,
      );
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    // Its close, with the state of the lines it would have read and their stale count.
    const state = Buffer.from("a state over the lines the old host read");
    expect(
      await failure(() => store.pool.query(oldLetGo(store.s), [id, row?.token, state, row?.floor])),
    ).toMatchObject(NO_SUCH_COLUMN);

    expect(await snapshot(store)).toEqual(before);
    expect((await store.findById(id))?.messageCount).toBe(4);
  });

  it("a schema that newer code migrated is refused by migrate and connect, and left as it was", async () => {
    const newest = Math.max(...MIGRATIONS.map((m) => m.version));
    const other = await connectStore({ owner: "other" });
    try {
      // At version 3 with a newer version recorded: applying 4 here would change it.
      await toVersion3(other.pool, other.s);
      await other.pool.query(
        `INSERT INTO ${other.s}.schema_migrations (version, description) VALUES ($1, 'newer')`,
        [newest + 1],
      );
      const before = await snapshot(other);
      const columns = () =>
        other.pool.query(
          `SELECT column_name FROM information_schema.columns WHERE table_schema = $1
            ORDER BY table_name, column_name`,
          [other.schema],
        );
      const shape = (await columns()).rows;
      const refused = new RegExp(`migrated by newer code \\(version ${newest + 1};`);
      await expect(migrate(other.pool, other.schema)).rejects.toThrow(refused);
      await expect(
        PostgresSessionStore.connect({ connectionString: pgUrl(), schema: other.schema }),
      ).rejects.toThrow(refused);
      expect(await snapshot(other)).toEqual(before);
      expect((await columns()).rows).toEqual(shape);
      await other.pool.query(`DROP SCHEMA ${other.s} CASCADE`);
    } finally {
      await other.close();
    }
  });
});
