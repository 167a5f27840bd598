/**
 * WAL per append of one writer, which no noise of a shared machine moves: a server started
 * here, one session written, then `--appends` (default 2,000) user messages appended one at a
 * time, each awaiting its flush; the WAL the server wrote meanwhile (`pg_current_wal_lsn`)
 * divided by the appends, and the session row's updates (`pg_stat_user_tables`), beside the
 * same count of raw single-row INSERTs into a table of the entries' shape.
 *
 *   node --conditions=@pi-sessions/source --import tsx bench/wal.ts [--appends=N]
 */
import { SessionManager } from "@pi-sessions/core";
import { startPostgres } from "@pi-sessions/test-utils/pg-server";
import pg from "pg";
import { PostgresSessionStore } from "../src/index.js";
import { flag, userMessage } from "./bench-inputs.js";
import { createFloorTable, rawFloor } from "./raw-floor.js";

const APPENDS = flag("appends", 2000);

const server = await startPostgres({ fsync: true });
const admin = new pg.Pool({ connectionString: server.url, max: 2 });
admin.on("error", () => {}); // the server stopping at the end ends its idle connections
const lsn = async () =>
  (await admin.query<{ l: string }>("SELECT pg_current_wal_lsn()::text AS l")).rows[0]?.l as string;
const walSince = async (from: string) =>
  Number(
    (
      await admin.query<{ d: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS d", [
        from,
      ])
    ).rows[0]?.d,
  );
const sessionUpdates = async () => {
  await admin.query("SELECT pg_stat_force_next_flush()").catch(() => {});
  const r = await admin.query<{ n: string }>(
    "SELECT coalesce(sum(n_tup_upd), 0) AS n FROM pg_stat_user_tables WHERE relname = 'sessions'",
  );
  return Number(r.rows[0]?.n);
};
try {
  const store = await PostgresSessionStore.connect({ connectionString: server.url });
  await createFloorTable(admin, store.s);
  const sm = SessionManager.withStore(store, "/work/wal");
  sm.appendMessage(userMessage(-1));
  await sm.flush();
  await admin.query("CHECKPOINT"); // full-page images after a checkpoint hit both runs alike
  let from = await lsn();
  const updatesBefore = await sessionUpdates();
  for (let i = 0; i < APPENDS; i++) {
    sm.appendMessage(userMessage(i));
    await sm.flush();
  }
  const storeWal = await walSince(from);
  const updates = (await sessionUpdates()) - updatesBefore;
  sm.close();
  await store.released();
  await admin.query("CHECKPOINT");
  from = await lsn();
  await rawFloor(admin, store.s, 1, APPENDS);
  const rawWal = await walSince(from);
  console.log(
    `${APPENDS} appends, one writer: store ${(storeWal / APPENDS).toFixed(0)} B of WAL per append ` +
      `(${updates} session row updates), raw INSERT ${(rawWal / APPENDS).toFixed(0)} B`,
  );
  await store.close();
} finally {
  await admin.end();
  await server.stop();
}
