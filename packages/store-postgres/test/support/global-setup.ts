/**
 * Vitest global setup: one PostgreSQL server for every test file, or the one
 * `PI_SESSIONS_PG_URL` names. Test files isolate themselves by schema, so they can share it;
 * on a server of the user's, the schemas this run made (their names carry the run's tag) are
 * dropped at the end, so runs do not pile them up.
 */
import "vitest";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { type PostgresServer, startPostgres } from "./pg-server.js";

let server: PostgresServer | undefined;
let existing: string | undefined;
/** Lower-case letters and digits, so that it fits in a schema name (see `freshSchema`). */
const run = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export async function setup(project: TestProject): Promise<void> {
  existing = process.env.PI_SESSIONS_PG_URL || undefined;
  if (!existing) server = await startPostgres();
  project.provide("pgUrl", existing ?? (server as PostgresServer).url);
  project.provide("pgRun", run);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (existing) await dropRunSchemas(existing);
}

/** Drops every schema whose name carries this run's tag. */
async function dropRunSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  // A connection that ends under us (the server stopping) must not end the run.
  client.on("error", () => {});
  await client.connect();
  try {
    const found = await client.query<{ nspname: string }>(
      "SELECT nspname FROM pg_namespace WHERE position($1 IN nspname) > 0",
      [`_${run}_`],
    );
    for (const { nspname } of found.rows) {
      await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
    }
  } finally {
    await client.end();
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
    /** This run's tag, part of every schema name it makes. */
    pgRun: string;
  }
}
