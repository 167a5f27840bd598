/**
 * The testkit's store contract on the PostgreSQL store, as on core's memory and file stores:
 * each case on a store in a fresh schema, what is persisted read from the tables behind the
 * store's back, and a session's first write obstructed by another session of its id.
 */
import { fcOptions } from "@pi-sessions/test-utils";
import { type StoreContractTarget, storeContract } from "@pi-sessions/testkit";
import { describe, it } from "vitest";
import type { PostgresSessionStore } from "../src/index.js";
import { nextSeqSql } from "../src/session-head.js";
import { connectStore } from "./support/store.js";

/** The session's row and lines as stored, or undefined when it has no row. */
async function persistedAt(store: PostgresSessionStore, location: string) {
  const id = store.idOf(location);
  const session = await store.pool.query(
    `SELECT header, header_seq, ${nextSeqSql(store.s, "s")} AS next_seq
       FROM ${store.s}.sessions s WHERE id = $1`,
    [id],
  );
  if (session.rowCount === 0) return undefined;
  const lines = await store.pool.query(
    `SELECT seq, line, raw FROM ${store.s}.entries WHERE session_id = $1 ORDER BY seq`,
    [id],
  );
  return { session: session.rows[0], lines: lines.rows };
}

const postgres = (lease: boolean): StoreContractTarget => ({
  name: lease ? "postgres" : "postgres without lease",
  async make() {
    const store = await connectStore(lease ? {} : { lease: false });
    return {
      store,
      prepare: async (location, purpose) => {
        await store.load(location, { write: purpose === "open" });
      },
      persistedAt: (location) => persistedAt(store, location),
      async obstruct(location) {
        const header = {
          type: "session",
          version: 3,
          id: store.idOf(location),
          timestamp: "2026-01-01T00:00:00.000Z",
          cwd: "/another/project",
        };
        await store.importBytes(Buffer.from(`${JSON.stringify(header)}\n`), "obstacle");
      },
      dispose: () => store.close(),
    };
  },
});

for (const target of [postgres(true), postgres(false)]) {
  describe(`the store contract on the ${target.name} store`, () => {
    for (const c of storeContract(target, { fc: fcOptions(25) })) it(c.name, c.run);
  });
}
