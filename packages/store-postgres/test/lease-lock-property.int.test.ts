/**
 * The fast path under any interleaving: lone appends and bursts, a writer's lease falling due
 * for renewal, listing states saved, the lease taken by the same host started again (the old
 * writer fenced out and still trying), let-gos and reopens. Every acknowledged append is stored
 * exactly once, in order, in one chain; nothing of a fenced writer is stored; a reopen replays
 * what was acknowledged; the listing is the file store's listing of the exported files.
 */
import { SessionManager } from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, expect, test } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { comparable, fileListing } from "./support/listing.js";
import { connectStore, pgUrl } from "./support/store.js";

/** The property's run count (`FC_RUNS` honoured), named in its title. */
const RUNS = fcOptions(15);

/** A short ttl, so that a pause of a third of it makes the next append renew the lease. */
const TTL = 300;
let p: PostgresSessionStore;
let q: PostgresSessionStore;

beforeAll(async () => {
  p = await connectStore({ owner: "prop-host", lease: { ttlMs: TTL } });
  q = await PostgresSessionStore.connect({
    connectionString: pgUrl(),
    schema: p.schema,
    owner: "prop-host",
    lease: { ttlMs: TTL },
  });
});
afterAll(async () => {
  await p.close();
  await q.close();
});

const step = fc.oneof(
  fc.record({
    kind: fc.constant("append" as const),
    n: fc.integer({ min: 1, max: 20 }),
    each: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("pause" as const) }),
  fc.record({ kind: fc.constant("take" as const) }),
  fc.record({ kind: fc.constant("stale append" as const) }),
  fc.record({ kind: fc.constant("reopen" as const) }),
  fc.record({ kind: fc.constant("list" as const) }),
);

const messageTexts = (sm: SessionManager) =>
  sm
    .getEntries()
    .flatMap((e) =>
      e.type === "message" && e.message.role === "user" ? [String(e.message.content)] : [],
    );

test(`fast appends, renewals, state saves, lease takes and reopens in any order: each acknowledged append stored once, one chain, reopen equals, listing equals (numRuns ${RUNS.numRuns})`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
      await p.pool.query(`DELETE FROM ${p.s}.sessions`);
      const stores = [p, q];
      let at = 0; // the store of the current writer
      let cur = SessionManager.withStore(p, "/w/prop");
      cur.appendMessage({ role: "user", content: "m0", timestamp: 1 });
      await cur.flush();
      const id = cur.getSessionId();
      const acked = ["m0"];
      const stale: SessionManager[] = [];
      let n = 1;
      for (const s of steps) {
        if (s.kind === "append") {
          const texts = Array.from({ length: s.n }, () => `m${n++}`);
          for (const text of texts) {
            cur.appendMessage({ role: "user", content: text, timestamp: n });
            if (s.each) await cur.flush();
          }
          await cur.flush();
          acked.push(...texts);
        } else if (s.kind === "pause") {
          await new Promise((r) => setTimeout(r, TTL / 3 + 5));
        } else if (s.kind === "take") {
          at = 1 - at;
          stale.push(cur);
          cur = await (stores[at] as PostgresSessionStore).openSession(id);
        } else if (s.kind === "stale append") {
          const old = stale.at(-1);
          if (!old) continue;
          const text = `stale ${n++}`;
          try {
            old.appendMessage({ role: "user", content: text, timestamp: n });
          } catch {
            continue; // failed already: it refuses at once
          }
          await expect(old.flush()).rejects.toThrow();
        } else if (s.kind === "reopen") {
          cur.close();
          await (stores[at] as PostgresSessionStore).released();
          cur = await (stores[at] as PostgresSessionStore).openSession(id);
          expect(messageTexts(cur)).toEqual(acked);
        } else {
          expect(comparable(await p.listAll())).toEqual(await fileListing(p));
        }
      }
      // Stored: exactly the acknowledged appends, once each, in order, one chain.
      const lines = await p.pool.query<{ line: string }>(
        `SELECT line FROM ${p.s}.entries WHERE session_id = $1 ORDER BY seq`,
        [id],
      );
      const records = lines.rows.map((r) => JSON.parse(r.line));
      expect(records.slice(1).map((r) => r.message.content)).toEqual(acked);
      records.slice(2).forEach((r, i) => {
        expect(r.parentId).toBe(records[i + 1].id);
      });
      for (const sm of [cur, ...stale]) sm.close();
      await p.released();
      await q.released();
      const reopened = await p.openSession(id);
      expect(messageTexts(reopened)).toEqual(acked);
      reopened.close();
      await p.released();
      expect(comparable(await p.listAll())).toEqual(await fileListing(p));
    }),
    RUNS,
  );
});
