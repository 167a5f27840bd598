/**
 * A migration on a live database: its table lock waits behind a long reader, and every
 * statement on that table queues behind its request. The migration gives up after its lock
 * timeout (`55P03`, nothing changed), so appends go on, and `connect` tries it again, so it
 * migrates once the reader is done.
 */
import { SessionManager } from "@pi-sessions/core";
import pg from "pg";
import { expect, test } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { toVersion3 } from "./support/older-code.js";
import { heldClient } from "./support/row-locks.js";
import { connectStore, pgUrl } from "./support/store.js";

/** Resolves once some backend waits for a lock on `table` of schema `schema`. */
async function lockAwaited(pool: pg.Pool, schema: string, table: string): Promise<void> {
  for (;;) {
    const waiting = await pool.query(
      `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE NOT l.granted AND n.nspname = $1 AND c.relname = $2`,
      [schema, table],
    );
    if (waiting.rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

test("a migration behind a long reader lets appends through, and migrates once the reader ends", async () => {
  const first = await connectStore({ owner: "first" });
  const sm = SessionManager.withStore(first, "/w/lock");
  sm.appendMessage({ role: "user", content: "m0", timestamp: Date.now() });
  await sm.flush();
  sm.close();
  await first.released();
  const id = sm.getSessionId();
  const parentId = sm.getEntries()[0]?.id;
  const timestamp = new Date().toISOString();
  await toVersion3(first.pool, first.s);
  const { schema, s } = first;
  await first.close();

  const watcher = new pg.Pool({ connectionString: pgUrl(), max: 2 });
  const reader = await heldClient(`SELECT count(*) FROM ${s}.entries`, []);
  let readerDone = false;
  try {
    const second = PostgresSessionStore.connect({ connectionString: pgUrl(), schema });
    void second.catch(() => {});
    await lockAwaited(watcher, schema, "entries");
    // An append (as a host still on version 3 writes one) queues behind the migration's
    // request; it goes through while the reader still reads, once the migration gives up.
    const during = { type: "custom", customType: "during", id: "d0d0d0d0", parentId, timestamp };
    const append = watcher.query(
      `INSERT INTO ${s}.entries (session_id, seq, line)
       SELECT $1, max(seq) + 1, $2 FROM ${s}.entries WHERE session_id = $1`,
      [id, JSON.stringify(during)],
    );
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise<string>((r) => {
      // Far past the migration's lock timeout: an append still waiting then waits for good.
      timer = setTimeout(() => r("the append still waits behind the migration"), 20_000);
    });
    expect(await Promise.race([append.then(() => "appended"), stuck])).toBe("appended");
    clearTimeout(timer);
    readerDone = true;
    await reader.commit();
    const store = await second;
    try {
      const version = await store.pool.query<{ v: number }>(
        `SELECT max(version) AS v FROM ${s}.schema_migrations`,
      );
      expect(version.rows[0]?.v).toBe(4);
      const reopened = await store.openSession(id);
      expect(reopened.getEntries().map((e) => e.type)).toEqual(["message", "custom"]);
      reopened.close();
      await store.released();
      await store.pool.query(`DROP SCHEMA ${s} CASCADE`);
    } finally {
      await store.close();
    }
  } finally {
    if (!readerDone) await reader.commit();
    await watcher.end();
  }
}, 60_000);
