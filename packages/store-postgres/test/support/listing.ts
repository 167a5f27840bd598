/** Listings compared across stores: the PostgreSQL store's and the file store's. */
import { type SessionInfo, SessionManager } from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import type { PostgresSessionStore } from "../../src/index.js";

/** Infos without their paths (a file path in one store, a location in the other), by id. */
export const comparable = (infos: SessionInfo[]) =>
  infos.map(({ path: _, ...rest }) => rest).sort((a, b) => a.id.localeCompare(b.id));

/** The file store's listing of every session of `store`, exported into a fresh directory. */
export async function fileListing(store: PostgresSessionStore) {
  const dir = tempDir();
  const ids = await store.pool.query<{ id: string }>(`SELECT id FROM ${store.s}.sessions`);
  for (const { id } of ids.rows) await store.exportToDir(id, dir);
  return comparable(await SessionManager.listAll(dir));
}
