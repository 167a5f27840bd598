/**
 * One host of the connection-fault tests, run as its own process while the test drops its
 * connections (`pg_terminate_backend`) or crashes the server. It loops over the calls that
 * open a transaction: `openSession` of its own session (load and lease) followed by an append,
 * and a new session's first write (the whole session in one transaction). A call that fails is
 * recorded with its message and tried again until it works. It stops when the file `stop`
 * appears in the folder it was given, and prints what it did as one JSON line. After every
 * round in which each call worked it leaves the file `<host>.ready` there (when missing), so
 * the test, by removing it, learns when the host has got through again.
 *
 * Usage: fault-host.ts <url> <schema> <host> <retries> <folder>
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { PostgresSessionStore } from "../../src/index.js";

const [url, schema, host = "host", retriesText = "0", folder = "."] = process.argv.slice(2);
const retries = Number(retriesText);

/** One call that reached this host as a rejection. */
interface Failure {
  readonly call: "connect" | "open" | "append" | "create";
  readonly message: string;
}

const failures: Failure[] = [];
/** Every text whose write was acknowledged (its flush resolved), with its session. */
const acked: { session: string; text: string }[] = [];
const counts = { open: 0, append: 0, create: 0 };
let n = 0;
const pause = () => new Promise((r) => setTimeout(r, 20));

/** Runs `call` until it works, recording each rejection. */
async function untilItWorks<T>(call: Failure["call"], run: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await run();
    } catch (error) {
      failures.push({ call, message: error instanceof Error ? error.message : String(error) });
      await pause();
    }
  }
}

const store = await untilItWorks("connect", () =>
  PostgresSessionStore.connect({
    connectionString: url,
    schema,
    owner: `host-${host}`,
    applicationName: `fault-${host}`,
    retry: { retries, delayMs: 50 },
  }),
);

/** A new session whose first write is this text; its id once the write is durable. */
async function create(): Promise<string> {
  return untilItWorks("create", async () => {
    const text = `${host}:create:${n++}`;
    const sm = SessionManager.withStore(store, "/work/faults");
    try {
      sm.appendMessage({ role: "user", content: text, timestamp: Date.now() });
      await sm.flush();
      acked.push({ session: sm.getSessionId(), text });
      counts.create++;
      return sm.getSessionId();
    } finally {
      sm.close();
    }
  });
}

/** Opens the session (load and lease) and appends one message to it. */
async function openAndAppend(id: string): Promise<void> {
  const sm = await untilItWorks("open", () => store.openSession(id));
  counts.open++;
  const text = `${host}:append:${n++}`;
  try {
    sm.appendMessage({ role: "user", content: text, timestamp: Date.now() });
    await sm.flush();
    acked.push({ session: id, text });
    counts.append++;
  } catch (error) {
    // The manager is failed now; the next round opens the session again.
    failures.push({ call: "append", message: (error as Error).message });
    await pause();
  } finally {
    sm.close();
  }
}

const own = await create();
while (!existsSync(join(folder, "stop"))) {
  await openAndAppend(own);
  await create();
  const ready = join(folder, `${host}.ready`);
  if (!existsSync(ready)) writeFileSync(ready, "");
}
await store.close();
process.stdout.write(`${JSON.stringify({ host, retries, counts, failures, acked })}\n`);
