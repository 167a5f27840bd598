/**
 * One "host" of the many-hosts test, run as its own process: appends `count` user messages to
 * each session named on the command line, one at a time, each through a freshly opened
 * manager (load, append, flush, close). An append that loses to another host (a conflict, or
 * the lease held elsewhere) is reported as rejected and tried again as a new message; at the
 * end the host prints what it got in and what was rejected, as JSON.
 *
 * Usage: writer-host.ts <url> <schema> <host> <count> <lease|no-lease> <session-id>...
 */
import { SessionConflictError } from "@pi-sessions/core";
import { PostgresSessionStore, SessionLeasedError } from "../../src/index.js";

const [url, schema, host = "host", countText, leaseMode, ...sessions] = process.argv.slice(2);
const count = Number(countText);
const store = await PostgresSessionStore.connect({
  connectionString: url,
  schema,
  owner: `host-${host}`,
  ...(leaseMode === "lease" ? { lease: { ttlMs: 60_000 } } : { lease: false }),
});
const acked: string[] = [];
const rejected: string[] = [];
let attempts = 0;
let waits = 0;
const started = performance.now();
// Hosts start at different sessions (by name), so they meet on a session now and then
// rather than queueing behind each other on every one.
const offset = [...host].reduce((n, c) => n + c.charCodeAt(0), 0) % Math.max(1, sessions.length);
const order = [...sessions.slice(offset), ...sessions.slice(0, offset)];
for (let i = 0; i < count; i++) {
  for (const id of order) {
    for (;;) {
      const text = `${host}:${id}:${i}:${attempts++}`;
      let sm: Awaited<ReturnType<PostgresSessionStore["openSession"]>> | undefined;
      try {
        sm = await store.openSession(id);
        sm.appendMessage({ role: "user", content: text, timestamp: Date.now() });
        await sm.flush();
        acked.push(text);
        break;
      } catch (error) {
        if (error instanceof SessionLeasedError) {
          // The holder gives the lease up as soon as its append is durable.
          waits++;
          await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
          continue;
        }
        if (!(error instanceof SessionConflictError)) throw error;
        rejected.push(text);
      } finally {
        sm?.close();
      }
    }
  }
}
await store.close();
process.stdout.write(
  `${JSON.stringify({ host, acked, rejected, waits, ms: performance.now() - started })}\n`,
);
