/**
 * The store's options that change what a commit or a load means: `synchronousCommit` sets the
 * server's setting on the store's own connections (and is refused for a pool of yours, which
 * the store does not configure), and a load for reading only takes no lease, writes nothing and
 * cannot be opened for writing.
 */
import { SessionManager } from "@pi-sessions/core";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { connectStore, freshSchema, pgUrl } from "./support/store.js";

const setting = async (store: PostgresSessionStore) =>
  (await store.pool.query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows[0]
    ?.synchronous_commit;

describe("options", () => {
  it("synchronousCommit: \"off\" on the store's connections; the server's own otherwise", async () => {
    const durable = await connectStore();
    const fast = await connectStore({ synchronousCommit: "off" });
    expect(await setting(durable)).toBe("on");
    expect(await setting(fast)).toBe("off");
    await durable.close();
    await fast.close();
  });

  it("synchronousCommit with a pool of yours is refused, saying how to set it there", async () => {
    const pool = new pg.Pool({ connectionString: pgUrl() });
    await expect(
      PostgresSessionStore.connect({ pool, schema: freshSchema(), synchronousCommit: "off" }),
    ).rejects.toThrow(/set it on your pool/);
    await pool.end();
  });

  it("a load for reading only takes no lease and cannot be opened for writing", async () => {
    const store = await connectStore();
    const sm = SessionManager.withStore(store, "/w");
    sm.appendMessage({ role: "user", content: "hi", timestamp: 1 });
    await sm.flush();
    sm.close();
    await store.released();
    const location = await store.load(sm.getSessionId(), { write: false });
    const owner = await store.pool.query<{ lease_owner: string | null }>(
      `SELECT lease_owner FROM ${store.s}.sessions WHERE id = $1`,
      [sm.getSessionId()],
    );
    expect(owner.rows[0]?.lease_owner).toBeNull();
    expect(() => store.open(location)).toThrow(/Loaded for reading only/);
    await store.load(sm.getSessionId(), { write: false });
    expect(store.read(location).entries).toHaveLength(1);
    await store.close();
  });
});
