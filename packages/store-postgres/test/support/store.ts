/**
 * Stores over the test run's PostgreSQL server, each in a schema of its own so that test
 * files (and tests) never see each other's sessions.
 */
import { SessionManager } from "@pi-sessions/core";
import type { ManagerFactory } from "@pi-sessions/testkit";
import { inject } from "vitest";
import { PostgresSessionStore, type PostgresStoreOptions } from "../../src/index.js";

/** The test run's server. */
export const pgUrl = (): string => inject("pgUrl");

let schemas = 0;
/** A schema name no other test of this run uses, with the run's tag (dropped at its end). */
export function freshSchema(prefix = "t"): string {
  return `${prefix}_${inject("pgRun")}_${process.pid}_${Date.now().toString(36)}_${schemas++}`;
}

/** A store in a fresh schema (or `schema`), on the run's server unless a URL is given. */
export function connectStore(
  options: Partial<PostgresStoreOptions> = {},
): Promise<PostgresSessionStore> {
  return PostgresSessionStore.connect({
    connectionString: pgUrl(),
    schema: freshSchema(),
    ...options,
  });
}

const CWD = "/work/project";

/** The testkit's store factory over one PostgreSQL store: managers by `withStore`, reopened by `openSession`. */
export function postgresStoreFactory(store: PostgresSessionStore): ManagerFactory {
  return {
    name: "postgres",
    create: () => SessionManager.withStore(store, CWD),
    flush: (manager) => (manager as SessionManager).flush(),
    async reopen(manager) {
      const sm = manager as SessionManager;
      const location = sm.getSessionFile();
      if (location === undefined) return undefined;
      const found = await store.pool.query(`SELECT 1 FROM ${store.s}.sessions WHERE id = $1`, [
        store.idOf(location),
      ]);
      if (found.rowCount === 0) return undefined;
      sm.close();
      return store.openSession(location);
    },
    dispose: () => store.close(),
  };
}
