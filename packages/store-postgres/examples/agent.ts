/**
 * One agent process: takes its turn in a shared session, then hands the session back.
 *
 *   agent.ts <postgres-url> <schema> <name> [session-id]
 *
 * Without a session id it starts a new session; with one it opens it (taking the writer
 * lease, reading every entry the other agents wrote). It appends a user message and an
 * assistant reply, waits until both are committed, gives the lease up, and prints one JSON
 * line: the session id and the messages it saw when it opened the session.
 */
import { SessionManager } from "@pi-sessions/core";
import { PostgresSessionStore } from "@pi-sessions/store-postgres";

const [url, schema = "pi_sessions", name = "agent", id] = process.argv.slice(2);
const store = await PostgresSessionStore.connect({ connectionString: url, schema, owner: name });
const sm = id ? await store.openSession(id) : SessionManager.withStore(store, "/srv/team-project");
const seen = sm
  .getEntries()
  .flatMap((e) => (e.type === "message" ? [(e.message as { content: unknown }).content] : []));
sm.appendMessage({ role: "user", content: `${name}: my turn`, timestamp: Date.now() });
sm.appendMessage({
  role: "assistant",
  content: [{ type: "text", text: `${name}: done` }],
  api: "messages",
  provider: "example",
  model: "example",
  usage: {
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 15,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: "stop",
  timestamp: Date.now(),
} as never);
await sm.flush(); // both entries are committed
sm.close(); // the lease is given up: the next agent may open the session
await store.close();
console.log(JSON.stringify({ agent: name, session: sm.getSessionId(), seen }));
