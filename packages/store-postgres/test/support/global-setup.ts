/**
 * Vitest global setup: one PostgreSQL server for every test file, or the one
 * `PI_SESSIONS_PG_URL` names. Test files isolate themselves by schema, so they can share it.
 */
import "vitest";
import type { TestProject } from "vitest/node";
import { type PostgresServer, startPostgres } from "./pg-server.js";

let server: PostgresServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  const existing = process.env.PI_SESSIONS_PG_URL;
  if (!existing) server = await startPostgres();
  project.provide("pgUrl", existing || (server as PostgresServer).url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
