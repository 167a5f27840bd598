/**
 * A unique index of the operator's own on `entries` refuses a line for its own reason: the
 * append reaches the caller as the server's error (a unique violation naming that index), not
 * as a conflict with another writer, which only the entries' key (a taken seq) means.
 */
import { SessionConflictError, SessionManager } from "@pi-sessions/core";
import { expect, test } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { rowVersion } from "./support/row-locks.js";
import { connectStore, pgUrl } from "./support/store.js";

test("a line an operator's unique index refuses reaches the caller as the server's error, on either path", async () => {
  const store = await connectStore({ owner: "uniq" });
  try {
    // At most one custom entry per session: the operator's rule, not the store's.
    await store.pool.query(
      `CREATE UNIQUE INDEX one_custom ON ${store.s}.entries (session_id)
        WHERE line LIKE '{"type":"custom"%'`,
    );
    const lines = async (id: string) =>
      Number(
        (
          await store.pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM ${store.s}.entries WHERE session_id = $1`,
            [id],
          )
        ).rows[0]?.n,
      );
    // A writer without a lease claims its row with every append; a leased one, its lease
    // renewed at its load, goes the fast way (the row untouched, see `append-groups.ts`).
    const unleased = await PostgresSessionStore.connect({
      connectionString: pgUrl(),
      schema: store.schema,
      lease: false,
    });
    try {
      for (const [path, writer] of [
        ["claim", unleased],
        ["fast", store],
      ] as const) {
        const sm = SessionManager.withStore(writer, "/w/uniq");
        sm.appendMessage({ role: "user", content: "m0", timestamp: Date.now() });
        sm.appendCustomEntry("x", {});
        await sm.flush();
        sm.close();
        await writer.released();
        const id = sm.getSessionId();
        const reopened = await writer.openSession(id);
        const row = await rowVersion(store, id);
        reopened.appendMessage({ role: "user", content: "m1", timestamp: Date.now() });
        await reopened.flush();
        expect((await rowVersion(store, id)) === row, path).toBe(path === "fast");
        const stored = await lines(id);
        reopened.appendCustomEntry("x", {});
        const failure = await reopened.flush().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(failure, path).not.toBeInstanceOf(SessionConflictError);
        expect(failure, path).toMatchObject({ code: "23505", constraint: "one_custom" });
        expect(await lines(id)).toBe(stored);
        reopened.close();
        await writer.released();
      }
    } finally {
      await unleased.close();
    }
    await store.pool.query(`DROP SCHEMA ${store.s} CASCADE`);
  } finally {
    await store.close();
  }
});
