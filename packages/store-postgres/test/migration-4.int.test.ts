/**
 * Migration 4 (each line's `written_at`; the session row's next seq a lower bound): a version 3
 * database whose sessions the code before it wrote (every append updated the row: its next seq
 * and last write exact, no `written_at`) opens, lists and appends the same after migrating.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { CORPUS_DIR } from "@pi-sessions/test-utils/corpus";
import { expect, test } from "vitest";
import { migrate, PostgresSessionStore } from "../src/index.js";
import { comparable, fileListing } from "./support/listing.js";
import { toVersion3 } from "./support/older-code.js";
import { freshSchema, pgUrl } from "./support/store.js";

const user = (content: string, timestamp: number) =>
  ({ role: "user", content, timestamp }) as const;

test("a version 3 database written by the code before migration 4 opens, lists and appends after it", async () => {
  const schema = freshSchema("m4");
  const before = await PostgresSessionStore.connect({ connectionString: pgUrl(), schema });
  const sm = SessionManager.withStore(before, "/w/m4");
  sm.appendMessage(user("before the migration", 1_700_000_000_000));
  sm.appendSessionInfo("old");
  await sm.flush();
  const id = sm.getSessionId();
  sm.close();
  const undated = JSON.stringify({ type: "session", version: 3, id: "undated-m4", cwd: "/w/m4" });
  await before.importBytes(Buffer.from(`${undated}\n{"type":"model_change"}\n`, "utf8"));
  const corpus = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".jsonl"));
  for (const f of corpus.slice(0, 2)) {
    await before.importBytes(readFileSync(join(CORPUS_DIR, f)), f);
  }
  await before.released();
  const undatedBefore = (await before.findById("undated-m4"))?.modified;
  expect(undatedBefore).toBeInstanceOf(Date);
  // The rows as the code before kept them (exact next seq and last write), and version 3.
  await toVersion3(before.pool, before.s);
  // The undated session's modified time is its last write here and the export's mtime there.
  const dated = <T extends { id: string }>(infos: T[]) =>
    infos.filter((i) => i.id !== "undated-m4");
  const expected = dated(await fileListing(before));
  await before.close();

  const after = await PostgresSessionStore.connect({ connectionString: pgUrl(), schema });
  try {
    expect(await migrate(after.pool, schema)).toEqual([]); // connect applied it, once
    const version = await after.pool.query<{ v: number }>(
      `SELECT max(version) AS v FROM ${after.s}.schema_migrations`,
    );
    expect(version.rows[0]?.v).toBe(4);
    expect(dated(comparable(await after.listAll()))).toEqual(expected);
    expect((await after.findById("undated-m4"))?.modified).toEqual(undatedBefore);
    // Opened and appended to (the fast way, the row untouched), then listed and reopened.
    const reopened = await after.openSession(id);
    reopened.appendMessage(user("after the migration", 1_700_000_100_000));
    await reopened.flush();
    const written = await after.pool.query<{ seq: string; at: Date | null }>(
      `SELECT seq, written_at AS at FROM ${after.s}.entries WHERE session_id = $1 ORDER BY seq`,
      [id],
    );
    expect(written.rows.map((r) => r.at === null)).toEqual([true, true, true, false]);
    reopened.close();
    await after.released();
    expect(dated(comparable(await after.listAll()))).toEqual(dated(await fileListing(after)));
    const again = await after.openSession(id);
    expect(again.getEntries().map((e) => e.type)).toEqual(["message", "session_info", "message"]);
    again.close();
    await after.released();
    await after.pool.query(`DROP SCHEMA ${after.s} CASCADE`);
  } finally {
    await after.close();
  }
});
