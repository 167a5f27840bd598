/**
 * One "host" of the many-hosts test, run as its own process: appends `count` user messages to
 * each session named on the command line, one at a time, each through a freshly opened
 * manager (load, append, flush, close). An append that loses to another host (a conflict, or
 * the lease held elsewhere) is reported as rejected and tried again as a new message; at the
 * end the host prints what it got in and what was rejected, as JSON.
 *
 * Usage: writer-host.ts <url> <schema> <host> <count> <lease|no-lease> <session-id>...
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
// With a barrier folder, every host loads its first session, then waits until all of them
// have (each leaves its name there) before its first append: they all append at one seq.
const barrier = process.env.PI_SESSIONS_BARRIER;
const hosts = Number(process.env.PI_SESSIONS_BARRIER_HOSTS ?? 0);
async function meetAtBarrier(): Promise<void> {
  if (barrier === undefined || attempts !== 1) return;
  writeFileSync(join(barrier, host), "");
  while (readdirSync(barrier).length < hosts) await new Promise((r) => setTimeout(r, 10));
}
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
        await meetAtBarrier();
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
