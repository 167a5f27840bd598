/**
 * The PostgreSQL store against the JSONL file store, in one run on one machine:
 * - appends: W writers (1, 8, 32), each with its own session and manager, append user
 *   messages one after another; an append's latency is from the call to its `flush()`
 *   resolving (durable: committed; the file store writes before the call returns). Reported:
 *   aggregate appends/s and p50/p99 latency, and the ratio to the file store;
 * - replay: a 100k-entry session opened from PostgreSQL (`openSession`: load + replay)
 *   against the file store's `SessionManager.open` of the same file.
 *
 *   pnpm --filter @pi-sessions/store-postgres bench [-- --appends=N --entries=N --rounds=N]
 *
 * The server is the one `PI_SESSIONS_PG_URL` names, else one started here from the npm
 * binaries with fsync on (a commit waits for the disk); a second row uses asynchronous commit
 * on the same server. The file store runs with pi's default durability (`never`: no fsync),
 * and with `always` (fsync per append), the row to set against a durable commit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Durability, SessionManager } from "@pi-sessions/core";
import pg from "pg";
import { PostgresSessionStore } from "../src/index.js";
import { startPostgres } from "../test/support/pg-server.js";

const flag = (name: string, fallback: number): number => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : fallback;
};
const APPENDS = flag("appends", 3000);
const ENTRIES = flag("entries", 100_000);
const ROUNDS = flag("rounds", 3);
const WRITERS = [1, 8, 32];
const CWD = "/work/bench";

const message = (i: number) => ({
  role: "user" as const,
  content: `message ${i}: ${"lorem ipsum ".repeat(20)}`,
  timestamp: 1_700_000_000_000 + i,
});

interface AppendResult {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

/** `writers` managers append `APPENDS` messages between them, each awaiting its flush. */
async function appendRun(writers: number, make: () => SessionManager): Promise<AppendResult> {
  const managers = Array.from({ length: writers }, make);
  // The first message writes each session whole; it is not part of what is measured.
  for (const sm of managers) sm.appendMessage(message(-1));
  await Promise.all(managers.map((sm) => sm.flush()));
  const each = Math.ceil(APPENDS / writers);
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    managers.map(async (sm) => {
      for (let i = 0; i < each; i++) {
        const t = performance.now();
        sm.appendMessage(message(i));
        await sm.flush();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const sm of managers) sm.close();
  latencies.sort((a, b) => a - b);
  return {
    perSecond: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The file of a session of `n` alternating user and assistant messages. */
function bigSession(dir: string, n: number): string {
  const sm = SessionManager.create(CWD, dir);
  for (let i = 0; i < n; i++) sm.appendMessage(message(i));
  sm.close();
  return sm.getSessionFile() as string;
}

async function main(): Promise<void> {
  const server = process.env.PI_SESSIONS_PG_URL ? undefined : await startPostgres({ fsync: true });
  const url = process.env.PI_SESSIONS_PG_URL || (server?.url as string);
  const pool = new pg.Pool({ connectionString: url, max: 40 });
  pool.on("error", () => {});
  const schema = `bench_${process.pid}`;
  const store = await PostgresSessionStore.connect({ pool, schema });
  // The same server, with commits acknowledged before their WAL reaches the disk: what the
  // store costs when the disk is not the limit (a crash of the server may lose the last ms).
  const asyncPool = new pg.Pool({
    connectionString: url,
    max: 40,
    options: "-c synchronous_commit=off",
  });
  asyncPool.on("error", () => {});
  const asyncStore = await PostgresSessionStore.connect({ pool: asyncPool, schema });
  const dir = mkdtempSync(join(tmpdir(), "pi-pg-bench-"));
  try {
    console.log(`appends: ${APPENDS} per run, latency = append until flush() resolves`);
    console.log("writers  store                    appends/s   p50 ms   p99 ms");
    for (const writers of WRITERS) {
      const results: [string, AppendResult][] = [];
      results.push([
        "postgres (fsync on)",
        await appendRun(writers, () => SessionManager.withStore(store, CWD)),
      ]);
      results.push([
        "postgres (async commit)",
        await appendRun(writers, () => SessionManager.withStore(asyncStore, CWD)),
      ]);
      for (const durability of ["never", "always"] as Durability[]) {
        const make = () => SessionManager.create(CWD, dir, { durability });
        results.push([`file (durability ${durability})`, await appendRun(writers, make)]);
      }
      for (const [name, r] of results) {
        const line = `${String(writers).padStart(7)}  ${name.padEnd(24)} ${r.perSecond.toFixed(0).padStart(9)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)}`;
        console.log(line);
      }
      const pgRun = results[0]?.[1] as AppendResult;
      const fileRun = results[2]?.[1] as AppendResult;
      console.log(
        `         postgres (fsync on) / file (never): ${(pgRun.perSecond / fileRun.perSecond).toFixed(2)}× the appends/s`,
      );
    }
    const file = bigSession(dir, ENTRIES);
    const id = await store.importFile(file);
    const fileMs: number[] = [];
    const pgMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      SessionManager.open(file).close();
      fileMs.push(performance.now() - t);
      t = performance.now();
      const sm = await store.openSession(id);
      pgMs.push(performance.now() - t);
      if (sm.getEntries().length !== ENTRIES) throw new Error("the replay lost entries");
      sm.close();
    }
    console.log(
      `replay of ${ENTRIES} entries (median of ${ROUNDS}): file open ${median(fileMs).toFixed(0)} ms, postgres load+replay ${median(pgMs).toFixed(0)} ms (${(median(pgMs) / median(fileMs)).toFixed(2)}× the file store)`,
    );
  } finally {
    await pool.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => {});
    await store.close();
    await pool.end();
    await asyncPool.end();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
