/**
 * Where an append's CPU goes (not a bench: no floor, no ratio): W writers (default 32) append
 * through one store, one unprofiled run to warm up, then `--runs` runs under the inspector's
 * sampling profiler (start-up and the server's start stay out of the profile). Prints each
 * run's appends/s and CPU per append (this process, the server), the statements sent per
 * append, the client's self time per append by module and by function, and the server's side
 * of one round: `EXPLAIN (ANALYZE, BUFFERS, WAL)` of the round statement, whether the prepared
 * statement is planned once, and how many session-row updates were HOT. The profiler's own
 * sampling adds to the client's CPU (about a third at 100 µs): compare runs of this script
 * with each other, and the bench for figures.
 *
 *   node --conditions=@pi-sessions/source --import tsx bench/profile.ts \
 *     [--writers=32 --appends=4000 --runs=3 --async --inflight=N --explain=16 --out=FILE.cpuprofile]
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { SessionManager } from "@pi-sessions/core";
import { startPostgres } from "@pi-sessions/test-utils/pg-server";
import pg from "pg";
import { type AppendGroup, roundStatement } from "../src/append-groups.js";
import { PostgresSessionStore } from "../src/index.js";
import { serialisedRow } from "../src/lines.js";
import { nextSeqSql } from "../src/session-head.js";
import { flag, userMessage as message, textFlag } from "./bench-inputs.js";
import { measure } from "./cpu.js";

const WRITERS = flag("writers", 32);
const APPENDS = flag("appends", 4000);
const RUNS = flag("runs", 3);
const OUT = textFlag("out");
const ASYNC = process.argv.includes("--async");

async function run(store: PostgresSessionStore): Promise<number> {
  const managers = Array.from({ length: WRITERS }, () => SessionManager.withStore(store, "/w"));
  for (const sm of managers) sm.appendMessage(message(-1));
  await Promise.all(managers.map((sm) => sm.flush()));
  const each = Math.ceil(APPENDS / WRITERS);
  await Promise.all(
    managers.map(async (sm) => {
      for (let i = 0; i < each; i++) {
        sm.appendMessage(message(i));
        await sm.flush();
      }
    }),
  );
  for (const sm of managers) sm.close();
  return each * WRITERS;
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** Statements sent through pools, by name (the rounds of group commit among them). */
const statements = new Map<string, number>();
const poolQuery = pg.Pool.prototype.query;
pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
  const q = args[0] as { name?: string } | string;
  const name = typeof q === "string" ? q.trim().slice(0, 40) : (q.name ?? "?");
  statements.set(name, (statements.get(name) ?? 0) + 1);
  return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof poolQuery;

const server = await startPostgres({ fsync: true });
const store = await PostgresSessionStore.connect({
  connectionString: server.url,
  schema: `prof_${process.pid}`,
  ...(ASYNC ? { synchronousCommit: "off" as const } : {}),
  ...(flag("inflight", 0) > 0 ? { groupCommit: { maxInFlight: flag("inflight", 0) } } : {}),
});
try {
  await run(store);
  const inspector = new Session();
  inspector.connect();
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.setSamplingInterval", { interval: 100 });
  await inspector.post("Profiler.start");
  statements.clear();
  let appends = 0;
  for (let r = 0; r < RUNS; r++) {
    const { result, spent } = await measure(server.pid, () => run(store));
    appends += result;
    const per = (ms: number | undefined) => (((ms ?? 0) * 1000) / result).toFixed(0);
    console.log(
      `run ${r}: ${(result / (spent.wallMs / 1000)).toFixed(0)}/s client ${per(spent.clientMs)} µs server ${per(spent.serverMs)} µs per append`,
    );
  }
  const { profile } = (await inspector.post("Profiler.stop")) as {
    profile: {
      nodes: Node[];
      startTime: number;
      endTime: number;
      samples: number[];
      timeDeltas: number[];
    };
  };
  for (const [name, count] of statements) {
    console.log(`${(count / appends).toFixed(3)} per append: ${name.replace(/:.*/, "")}`);
  }
  if (OUT) writeFileSync(OUT, JSON.stringify(profile));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFn = new Map<string, number>();
  const byUrl = new Map<string, number>();
  for (const n of profile.nodes) {
    const us = self.get(n.id) ?? 0;
    const url = n.callFrame.url
      .replace(/.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, "")
      .replace(/.*\/packages\//, "");
    const fn = `${n.callFrame.functionName || "(anon)"} ${url}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    byUrl.set(
      url || n.callFrame.functionName,
      (byUrl.get(url || n.callFrame.functionName) ?? 0) + us,
    );
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, us]) => `${(us / appends).toFixed(1).padStart(7)} µs  ${name}`)
      .join("\n");
  console.log(`\nself time per append by module (${appends} appends)\n${top(byUrl, 25)}`);
  console.log(`\nself time per append by function\n${top(byFn, 40)}`);
  await explainRound(server.url, `"prof_${process.pid}"`, flag("explain", 16));
} finally {
  await store.close();
  await server.stop();
}

/**
 * The server's side of one round: `EXPLAIN (ANALYZE, BUFFERS, WAL)` of the round statement of
 * `n` groups of one line each (the sessions the runs wrote, at their next seqs, with their
 * lease tokens), twice (the second is printed), each in a transaction rolled back.
 */
async function explainRound(url: string, s: string, n: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sessions = await client.query<{ id: string; next_seq: string; lease_token: string }>(
      `SELECT id, ${nextSeqSql(s, "s")} AS next_seq, lease_token FROM ${s}.sessions s
        ORDER BY id LIMIT $1`,
      [n],
    );
    const groups: AppendGroup[] = sessions.rows.map((r, i) => {
      const line = JSON.stringify({
        type: "message",
        id: `e${i}`.padStart(8, "0"),
        parentId: null,
        timestamp: new Date().toISOString(),
        message: message(i),
      });
      return {
        id: r.id,
        location: r.id,
        rows: [serialisedRow(Number(r.next_seq), line)],
        texts: [null],
        lease: { owner: "x", token: Number(r.lease_token), ttlMs: 30_000 },
        state: null,
        renew: true,
      };
    });
    const statement = roundStatement(s, groups);
    let plan: string[] = [];
    for (let i = 0; i < 2; i++) {
      await client.query("BEGIN");
      const explained = await client.query<{ "QUERY PLAN": string }>({
        text: `EXPLAIN (ANALYZE, BUFFERS, WAL) ${statement.text}`,
        values: statement.values,
      });
      plan = explained.rows.map((r) => r["QUERY PLAN"]);
      await client.query("ROLLBACK");
    }
    console.log(
      `\nEXPLAIN ANALYZE of a round of ${groups.length} groups of one line\n${plan.join("\n")}`,
    );
    // Whether the prepared statement is planned once (generic) or at every execution.
    await client.query("BEGIN");
    for (let i = 0; i < 8; i++) await client.query(statement);
    const plans = await client.query(
      "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1",
      [statement.name],
    );
    await client.query("ROLLBACK");
    console.log("plans of the prepared round statement after 8 executions:", plans.rows[0]);
    const hot = await client.query(
      `SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relid = '${s}.sessions'::regclass`,
    );
    // As the statistics have them: a backend reports its counts at most once a second, so a
    // short run may show fewer (or none).
    console.log("session row updates (all, HOT):", hot.rows[0]);
  } finally {
    await client.end();
  }
}
