/**
 * The listing fold's saved state: every write path (a manager's create and appends, a reopened
 * session's appends, an import, a legacy session's rewrite) leaves each session a state as of
 * all its lines, and sessions written before the state existed (schema version 1) or by a
 * writer that saves none list as the file store lists their exported files.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { serialize } from "node:v8";
import { SessionManager } from "@pi-sessions/core";
import { sessionInfoCodec } from "@pi-sessions/core/internal";
import { CORPUS_DIR } from "@pi-sessions/test-utils/corpus";
import { legacySessionArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { serialisedRow } from "../src/lines.js";
import { nextSeqSql } from "../src/session-head.js";
import { commitOnPool, unleasedGroup } from "./support/groups.js";
import { comparable, fileListing } from "./support/listing.js";
import { toVersion3 } from "./support/older-code.js";
import { connectStore, pgUrl } from "./support/store.js";

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore();
});
afterAll(() => store.close());

const CWD = "/work/info-state";

/** The sessions whose saved state is missing or older than their last line. */
async function withoutState(s: PostgresSessionStore): Promise<string[]> {
  const rows = await s.pool.query<{ id: string }>(
    `SELECT id FROM ${s.s}.sessions s
      WHERE info_state IS NULL OR info_seq IS DISTINCT FROM ${nextSeqSql(s.s, "s")} ORDER BY id`,
  );
  return rows.rows.map((r) => r.id);
}

const user = (text: string, timestamp: number) =>
  ({ role: "user", content: text, timestamp }) as const;

/** Writes sessions by every path a session's lines are written by; returns their ids. */
async function writeSessions(s: PostgresSessionStore): Promise<string[]> {
  const sm = SessionManager.withStore(s, CWD);
  sm.appendMessage(user("first question", 1_700_000_000_000));
  sm.appendSessionInfo("  a name ");
  await sm.flush();
  const location = sm.getSessionFile() as string;
  sm.close();
  const reopened = await s.openSession(location);
  reopened.appendMessage(user("asked again", 1_700_000_100_000));
  reopened.appendSessionInfo("renamed");
  await reopened.flush();
  reopened.close();
  const corpus = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".jsonl"));
  for (const f of corpus.slice(0, 3)) await s.importBytes(readFileSync(join(CORPUS_DIR, f)), f);
  const [legacy] = fc.sample(legacySessionArb({ garbageLines: true }), { seed: 7, numRuns: 1 });
  const legacyId = await s.importBytes(Buffer.from(legacy?.jsonl ?? "", "utf8"), "legacy.jsonl");
  const migrated = await s.openSession(legacyId); // rewritten whole as it loads
  migrated.close();
  // Closed managers save the state of the lines they did not save it for as they let go.
  await s.released();
  const ids = await s.pool.query<{ id: string }>(`SELECT id FROM ${s.s}.sessions`);
  return ids.rows.map((r) => r.id);
}

describe("the listing fold's saved state", () => {
  it("every write path saves it, and the listing from it is the file store's", async () => {
    await store.pool.query(`DELETE FROM ${store.s}.sessions`);
    const ids = await writeSessions(store);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    expect(await withoutState(store)).toEqual([]);
    const listed = comparable(await store.listAll());
    expect(listed.map((i) => i.name)).toContain("renamed");
    expect(listed).toEqual(await fileListing(store));
  });

  it("a session written before migration 2 (no state) lists the same after it", async () => {
    const schema = `${store.schema}_v1`;
    const before = await PostgresSessionStore.connect({ connectionString: pgUrl(), schema });
    await writeSessions(before);
    const expected = await fileListing(before);
    // Back to version 1: what migrations 4 and 2 changed is undone and their rows are gone
    // (migration 3's stays: it changes nothing migration 2 reads).
    await toVersion3(before.pool, before.s);
    await before.pool.query(
      `ALTER TABLE ${before.s}.sessions DROP COLUMN info_state, DROP COLUMN info_seq;
       ALTER TABLE ${before.s}.entries DROP COLUMN info_texts;
       DELETE FROM ${before.s}.schema_migrations WHERE version = 2`,
    );
    await before.close();
    const after = await PostgresSessionStore.connect({ connectionString: pgUrl(), schema });
    try {
      expect(await withoutState(after)).toEqual([]);
      expect(comparable(await after.listAll())).toEqual(expected);
      await after.pool.query(`DROP SCHEMA ${after.s} CASCADE`);
    } finally {
      await after.close();
    }
  });

  it("a state another version saved (unreadable, binary from before the codecs, another fold's or rule version's) is folded from its lines", async () => {
    await store.pool.query(`DELETE FROM ${store.s}.sessions`);
    await writeSessions(store);
    const expected = await fileListing(store);
    const ids = (await store.pool.query<{ id: string }>(`SELECT id FROM ${store.s}.sessions`)).rows;
    const saved = (name: string, version: number) =>
      Buffer.from(JSON.stringify({ name, version, state: '{"header":null}' }), "utf8");
    const foreign = [
      Buffer.from("not a serialised value"),
      serialize({ format: "another,fold", fields: { header: null }, stopped: false }),
      saved("another-fold", sessionInfoCodec.version),
      saved(sessionInfoCodec.name, sessionInfoCodec.version + 1),
    ];
    for (const [i, { id }] of ids.entries()) {
      await store.pool.query(`UPDATE ${store.s}.sessions SET info_state = $2 WHERE id = $1`, [
        id,
        foreign[i % foreign.length],
      ]);
    }
    expect(comparable(await store.listAll())).toEqual(expected);
    // A manager opened over such a state writes on without one: the listing still folds.
    const first = ids[0]?.id as string;
    const reopened = await store.openSession(first);
    reopened.appendMessage(user("after a foreign state", 1_700_000_400_000));
    await reopened.flush();
    reopened.close();
    expect(comparable(await store.listAll())).toEqual(await fileListing(store));
  });

  it("a line a writer stored without its texts (one keeping no fold) is folded by the listing; the next writer's load stores them and a current state", async () => {
    await store.pool.query(`DELETE FROM ${store.s}.sessions`);
    const sm = SessionManager.withStore(store, CWD);
    sm.appendMessage(user("saved", 1_700_000_000_000));
    await sm.flush();
    const location = sm.getSessionFile() as string;
    sm.close();
    const id = store.idOf(location);
    const next = await store.pool.query<{ next_seq: string }>(
      `SELECT ${nextSeqSql(store.s, "s")} AS next_seq FROM ${store.s}.sessions s WHERE id = $1`,
      [id],
    );
    const message = { type: "message", id: "a1b2c3d4", parentId: null, timestamp: "t" };
    const entry = { ...message, message: user("unsaved", 1_700_000_200_000) };
    const row = serialisedRow(Number(next.rows[0]?.next_seq), JSON.stringify(entry));
    const group = unleasedGroup(id, location, row);
    expect(await commitOnPool(store.pool, store.s, [{ group, retrying: false }])).toEqual([
      undefined,
    ]);
    expect(await withoutState(store)).toEqual([id]);
    const [info] = await store.listAll();
    expect(info?.allMessagesText).toBe("saved unsaved");
    expect(comparable(await store.listAll())).toEqual(await fileListing(store));
    // Its next writer folds the lines after the saved state again, finds the texts missing,
    // and stores them with the state after every line, as it loads.
    const reopened = await store.openSession(location);
    expect(await withoutState(store)).toEqual([]);
    const texts = await store.pool.query<{ info_texts: string | null }>(
      `SELECT info_texts FROM ${store.s}.entries WHERE session_id = $1 AND seq = $2`,
      [id, row.seq],
    );
    expect(texts.rows).toEqual([{ info_texts: '["unsaved"]' }]);
    reopened.appendMessage(user("later", 1_700_000_300_000));
    await reopened.flush();
    reopened.close();
    await store.released();
    expect(await withoutState(store)).toEqual([]);
    expect((await store.findById(id))?.allMessagesText).toBe("saved unsaved later");
    expect(comparable(await store.listAll())).toEqual(await fileListing(store));
  });
});
