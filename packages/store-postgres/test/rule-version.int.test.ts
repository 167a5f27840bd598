/**
 * SPEC §14 F2 on the PostgreSQL store: a listing state saved under one version of core's info
 * rule is never reused under another. The store keeps `{ name, version, state }` as core's
 * codec gives it; bumping the codec's version makes every listing fold from the lines, and the
 * next writer of each session saves its state and line texts again under the new version.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager, type VersionedFold } from "@pi-sessions/core";
import {
  type SavedFoldState,
  type SessionInfoFoldState,
  sessionInfoCodec,
} from "@pi-sessions/core/internal";
import { CORPUS_DIR } from "@pi-sessions/test-utils/corpus";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { PostgresSessionStore } from "../src/index.js";
import { nextSeqSql } from "../src/session-head.js";
import { comparable, fileListing } from "./support/listing.js";
import { connectStore } from "./support/store.js";

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore();
});
afterAll(() => store.close());

/** Runs `use` with `fold`'s version one higher, as a new release of its rule would. */
async function withBumped(fold: VersionedFold<unknown>, use: () => Promise<void>): Promise<void> {
  const bumped = fold as { version: number };
  const before = bumped.version;
  bumped.version = before + 1;
  try {
    await use();
  } finally {
    bumped.version = before;
  }
}

/** Every session's saved state as stored (parsed), by id. */
async function savedStates(): Promise<Map<string, SavedFoldState | null>> {
  const rows = await store.pool.query<{ id: string; info_state: Buffer | null; fresh: boolean }>(
    `SELECT id, info_state, info_seq = ${nextSeqSql(store.s, "s")} AS fresh
       FROM ${store.s}.sessions s ORDER BY id`,
  );
  return new Map(
    rows.rows.map((r) => [
      r.id,
      r.info_state && r.fresh
        ? (JSON.parse(r.info_state.toString("utf8")) as SavedFoldState)
        : null,
    ]),
  );
}

const user = (text: string, timestamp: number) =>
  ({ role: "user", content: text, timestamp }) as const;

test("a new version of the session-info rule rebuilds every stored listing state and line text", async () => {
  const sm = SessionManager.withStore(store, "/work/rule-version");
  sm.appendMessage(user("how do folds version?", 1_700_000_000_000));
  sm.appendSessionInfo("versioned");
  await sm.flush();
  sm.close();
  const corpus = readdirSync(CORPUS_DIR).filter((f) => f.endsWith(".jsonl"));
  for (const f of corpus.slice(0, 4)) await store.importBytes(readFileSync(join(CORPUS_DIR, f)), f);
  await store.released();
  const truth = await fileListing(store);
  const before = await savedStates();
  expect(before.size).toBe(truth.length);
  expect(before.size).toBeGreaterThanOrEqual(4);
  for (const saved of before.values()) {
    expect(saved).toMatchObject({ name: sessionInfoCodec.name, version: sessionInfoCodec.version });
  }

  // What an older rule would have left: states that count differently and texts of its own,
  // valid under the version in force, so the store reuses them as long as it stays in force.
  for (const [id, saved] of before) {
    const state = sessionInfoCodec.decode((saved as SavedFoldState).state);
    const stale: SessionInfoFoldState = { ...state, messageCount: state.messageCount + 1000 };
    const text = JSON.stringify({ ...saved, state: sessionInfoCodec.encode(stale) });
    await store.pool.query(`UPDATE ${store.s}.sessions SET info_state = $2 WHERE id = $1`, [
      id,
      Buffer.from(text, "utf8"),
    ]);
    await store.pool.query(
      `UPDATE ${store.s}.entries SET info_texts = '["stale"]'
        WHERE session_id = $1 AND info_texts IS NOT NULL`,
      [id],
    );
  }
  const reused = comparable(await store.listAll());
  expect(reused.map((i) => i.messageCount)).toEqual(truth.map((i) => i.messageCount + 1000));
  expect(reused.map((i) => i.allMessagesText.includes("stale"))).toEqual(
    truth.map((i) => i.allMessagesText !== ""),
  );
  expect(truth.some((i) => i.allMessagesText !== "")).toBe(true);

  await withBumped(sessionInfoCodec as VersionedFold<unknown>, async () => {
    // Under the new version no stored state or text is reused: every listing folds its lines.
    expect(comparable(await store.listAll())).toEqual(truth);
    for (const id of before.keys())
      expect((await store.findById(id))?.messageCount).toBe(
        truth.find((i) => i.id === id)?.messageCount,
      );
    // Each session's next writer saves the state and the texts again, under the new version.
    for (const id of before.keys()) (await store.openSession(id)).close();
    await store.released();
    const after = await savedStates();
    for (const [id, saved] of after) {
      expect(saved).toMatchObject({
        name: sessionInfoCodec.name,
        version: sessionInfoCodec.version,
      });
      const state = sessionInfoCodec.decode((saved as SavedFoldState).state);
      expect(state.messageCount).toBe(truth.find((i) => i.id === id)?.messageCount);
    }
    const stale = await store.pool.query(
      `SELECT 1 FROM ${store.s}.entries WHERE info_texts = '["stale"]'`,
    );
    expect(stale.rowCount).toBe(0);
    expect(comparable(await store.listAll())).toEqual(truth);
  });
  // Back under the first version, the states saved under the bumped one are refolded in turn.
  expect(comparable(await store.listAll())).toEqual(truth);
});

test("a state the codec cannot hold exactly is not saved: the listing folds that session's lines", async () => {
  await store.pool.query(`DELETE FROM ${store.s}.sessions`);
  const header = {
    type: "session",
    version: 3,
    id: "inexact",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/p",
  };
  // JSON reads 1e400 as Infinity, which the fold keeps as the last activity and JSON cannot.
  const message = { type: "message", id: "a1b2c3d4", parentId: null, timestamp: "t" };
  const line =
    `${JSON.stringify({ ...message, message: { role: "user", content: "far", timestamp: 1 } })}`.replace(
      '"timestamp":1}',
      '"timestamp":1e400}',
    );
  const id = await store.importBytes(
    Buffer.from(`${JSON.stringify(header)}\n${line}\n`),
    "inexact",
  );
  const row = await store.pool.query<{ info_state: Buffer | null }>(
    `SELECT info_state FROM ${store.s}.sessions WHERE id = $1`,
    [id],
  );
  expect(row.rows).toEqual([{ info_state: null }]);
  const [info] = await store.listAll();
  expect(info?.firstMessage).toBe("far");
  expect(comparable(await store.listAll())).toEqual(await fileListing(store));
});
