/**
 * The listing state is saved lazily (every 64 lines or 32 KiB, and when a writer lets go), so
 * a listing may find it some lines behind the log; it folds those lines itself. Whatever the
 * writers did (bursts across the saving threshold, renames after the last save, sessions let
 * go and opened again), every listing equals the file store's listing of the same sessions'
 * files, state behind or not.
 */
import { SessionManager } from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostgresSessionStore } from "../src/index.js";
import { nextSeqSql } from "../src/session-head.js";
import { comparable, fileListing } from "./support/listing.js";
import { connectStore } from "./support/store.js";

/** The property's run count (`FC_RUNS` honoured), named in its title. */
const RUNS = fcOptions(15);

let store: PostgresSessionStore;
beforeAll(async () => {
  store = await connectStore();
});
afterAll(() => store.close());

/** How many sessions have a saved state behind their last line. */
async function behind(): Promise<number> {
  const r = await store.pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${store.s}.sessions s WHERE info_seq < ${nextSeqSql(store.s, "s")}`,
  );
  return Number(r.rows[0]?.n);
}

const user = (content: string, timestamp: number) =>
  ({ role: "user", content, timestamp }) as const;

/** What a writer does to one of the sessions. */
const op = fc.oneof(
  fc.record({ kind: fc.constant("append" as const), count: fc.integer({ min: 1, max: 90 }) }),
  fc.record({ kind: fc.constant("rename" as const), name: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant("let go" as const) }),
  fc.record({ kind: fc.constant("list" as const) }),
);

describe("a listing state behind the log", () => {
  it("a manager appending right after it let the session go: the state saved then is the state of the lines stored", async () => {
    await store.pool.query(`DELETE FROM ${store.s}.sessions`);
    const sm = SessionManager.withStore(store, "/w");
    sm.appendMessage(user("first", 1));
    await sm.flush();
    sm.appendMessage(user("second", 2));
    await sm.flush();
    // Let go (the state of three lines is due), and append at once: the append's group is on
    // its way while the let-go saves; the state it saves must not hold the fourth line.
    sm.close();
    sm.appendMessage(user("after letting go", 3));
    await sm.flush();
    await store.released();
    const [info] = await store.listAll();
    expect(info?.allMessagesText).toBe("first second after letting go");
    expect(info?.messageCount).toBe(3);
    expect(comparable(await store.listAll())).toEqual(await fileListing(store));
  });

  it(`lists as the file store lists the files, whatever the writers did (numRuns ${RUNS.numRuns})`, async () => {
    let laggingListings = 0;
    let at = 1_700_000_000_000;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: 2 }), op), { minLength: 1, maxLength: 12 }),
        async (ops) => {
          await store.pool.query(`DELETE FROM ${store.s}.sessions`);
          const managers: (SessionManager | undefined)[] = [];
          const ids: (string | undefined)[] = [];
          for (const [i, o] of ops) {
            if (o.kind === "list") {
              await store.released();
              if ((await behind()) > 0) laggingListings++;
              expect(comparable(await store.listAll())).toEqual(await fileListing(store));
              continue;
            }
            let sm = managers[i];
            if (o.kind === "let go") {
              sm?.close();
              managers[i] = undefined;
              continue;
            }
            const id = ids[i];
            if (sm === undefined) {
              sm =
                id === undefined
                  ? SessionManager.withStore(store, "/w")
                  : await store.openSession(id);
              // A new session is written at its first message.
              if (id === undefined) sm.appendMessage(user(`session ${i} starts`, at++));
            }
            managers[i] = sm;
            if (o.kind === "rename") sm.appendSessionInfo(o.name);
            else for (let k = 0; k < o.count; k++) sm.appendMessage(user(`${k} of ${i}`, at++));
            await sm.flush();
            ids[i] = sm.getSessionId();
          }
          for (const sm of managers) sm?.close();
          await store.released();
          expect(comparable(await store.listAll())).toEqual(await fileListing(store));
        },
      ),
      RUNS,
    );
    // The tail of the log past a saved state was folded by listings, not only fresh states.
    expect(laggingListings).toBeGreaterThan(0);
  });
});
