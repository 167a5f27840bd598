/**
 * @pi-sessions/store-postgres — a `SessionStore` over PostgreSQL: one session log that agents
 * on many hosts share, one writer at a time, queried with SQL.
 *
 * @packageDocumentation
 */

export type { GroupCommitOptions } from "./group-commit.js";
export type { PostgresStoreOptions } from "./postgres-store.js";
export { PostgresSessionStore } from "./postgres-store.js";
export type { SessionUsageRecords } from "./queries.js";
export type { Migration } from "./schema.js";
export { MIGRATIONS, migrate } from "./schema.js";
export { SessionLeasedError, SessionNotFoundError } from "./session-load.js";
export type { Lease, RetryPolicy } from "./writes.js";
