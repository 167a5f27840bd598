/**
 * Two agent processes sharing one session through one PostgreSQL server: agent A starts the
 * session, agent B (another process, it could be another host) continues it, A continues
 * again; then the session is exported as the JSONL file pi reads.
 *
 *   node --conditions=@pi-sessions/source --import tsx examples/two-agents.ts [postgres-url] [schema]
 *
 * Without a URL (or `PI_SESSIONS_PG_URL`) a throwaway server is started from the npm binaries.
 * The schema defaults to the store's, `pi_sessions`.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PostgresSessionStore } from "@pi-sessions/store-postgres";
import { startPostgres } from "../test/support/pg-server.js";

const given = process.argv[2] || process.env.PI_SESSIONS_PG_URL;
const server = given ? undefined : await startPostgres();
const url = given || (server?.url as string);
const schema = process.argv[3] || "pi_sessions";
const agentScript = fileURLToPath(new URL("./agent.ts", import.meta.url));

/** Runs one agent process to its end; its JSON line. */
function agent(name: string, session?: string): { session: string; seen: unknown[] } {
  const args = [
    "--conditions=@pi-sessions/source",
    "--import",
    "tsx",
    agentScript,
    url,
    schema,
    name,
  ];
  const out = execFileSync(process.execPath, session ? [...args, session] : args, {
    encoding: "utf8",
  });
  const line = JSON.parse(out.trim().split("\n").at(-1) as string);
  console.log(`${name} saw ${line.seen.length} messages, then took its turn`);
  return line;
}

try {
  const { session } = agent("agent-a");
  agent("agent-b", session);
  agent("agent-a", session);
  const store = await PostgresSessionStore.connect({ connectionString: url, schema });
  const jsonl = (await store.exportBytes(session)).toString("utf8");
  await store.close();
  console.log(`session ${session} as pi's JSONL:`);
  process.stdout.write(jsonl);
} finally {
  await server?.stop();
}
