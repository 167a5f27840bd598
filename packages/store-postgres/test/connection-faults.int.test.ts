/**
 * Connections dropped inside a transaction, with hosts as separate processes (as operators run
 * them): the server terminates their backends (`pg_terminate_backend`, the FATAL a fast
 * shutdown or an administrator sends) or crashes (SIGQUIT: every backend exits without a word)
 * while the hosts are inside `openSession` (load and lease) and inside a new session's first
 * write (the whole session in one transaction). Every host lives; a call the fault reached
 * rejects with a message that says the connection went, and the next try works; with retries
 * the store absorbs the fault itself. Every acknowledged write is stored exactly once, and
 * every session stays one chain.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "@pi-sessions/test-utils";
import { type PostgresServer, startPostgres } from "@pi-sessions/test-utils/pg-server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresSessionStore } from "../src/index.js";
import { freshSchema } from "./support/store.js";

const HOST = fileURLToPath(new URL("./support/fault-host.ts", import.meta.url));
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

/** What a host printed at its end. */
interface HostReport {
  host: string;
  retries: number;
  counts: { open: number; append: number; create: number };
  failures: { call: string; message: string }[];
  acked: { session: string; text: string }[];
}

/** A host's end: its exit code, its report (when it lived to print one) and its stderr. */
interface HostEnd {
  name: string;
  code: number | null;
  report: HostReport | undefined;
  stderr: string;
}

/** What a rejection says when the connection went: the server's words or the client's. */
const CLEAR =
  /terminat|connection error|Connection terminated|ECONNREFUSED|ECONNRESET|shutting down|starting up|not yet accepting|recovery/i;

let server: PostgresServer;
let admin: pg.Pool;
beforeAll(async () => {
  // A server of this file's own: it is crashed, and other files share the run's server.
  server = await startPostgres();
  admin = new pg.Pool({ connectionString: server.url, max: 2 });
  admin.on("error", () => {});
});
afterAll(async () => {
  await admin.end();
  await server.stop();
});

/** Starts a host process; resolves with its end. */
function startHost(
  name: string,
  schema: string,
  retries: number,
  folder: string,
): { child: ChildProcess; end: Promise<HostEnd> } {
  const args = ["--conditions=@pi-sessions/source", "--import", "tsx", HOST];
  const child = spawn(
    process.execPath,
    [...args, server.url, schema, name, String(retries), folder],
    { cwd: PACKAGE, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => {
    stdout += d;
  });
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const end = new Promise<HostEnd>((resolve) => {
    child.on("exit", (code) => {
      const last = stdout.trim().split("\n").at(-1) ?? "";
      const report = last.startsWith("{") ? (JSON.parse(last) as HostReport) : undefined;
      resolve({ name, code, report, stderr: stderr.slice(-4000) });
    });
  });
  return { child, end };
}

/** Resolves once every host has got through a whole round since the ready files were removed. */
async function everyHostThrough(folder: string, names: string[], ends: Promise<HostEnd>[]) {
  let ended = false;
  void Promise.race(ends).then(() => {
    ended = true;
  });
  for (;;) {
    const ready = readdirSync(folder).filter((f) => f.endsWith(".ready"));
    // A host that died never gets through: stop waiting, the assertions say why.
    if (ready.length === names.length || ended) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Removes the ready files, so that `everyHostThrough` waits for a new round. */
function clearReady(folder: string): void {
  for (const f of readdirSync(folder)) if (f.endsWith(".ready")) rmSync(join(folder, f));
}

/**
 * Runs hosts (`retries` each) until they all got through a round, then `fault`, then until they
 * all got through again, and stops them.
 */
async function withHosts(
  hosts: Record<string, number>,
  fault: () => Promise<void>,
): Promise<{ schema: string; ends: HostEnd[] }> {
  const schema = freshSchema("cf");
  // The schema first, so the hosts' first connects do not all wait on the migration lock.
  await (await PostgresSessionStore.connect({ connectionString: server.url, schema })).close();
  const folder = tempDir();
  const names = Object.keys(hosts);
  const started = names.map((n) => startHost(n, schema, hosts[n] as number, folder));
  const ends = started.map((h) => h.end);
  await everyHostThrough(folder, names, ends);
  await fault();
  clearReady(folder);
  await everyHostThrough(folder, names, ends);
  writeFileSync(join(folder, "stop"), "");
  return { schema, ends: await Promise.all(ends) };
}

/** Every host lived to print its report. */
function expectAllLived(ends: HostEnd[]): HostReport[] {
  for (const e of ends) {
    expect({ host: e.name, code: e.code, stderr: e.code === 0 ? "" : e.stderr }).toEqual({
      host: e.name,
      code: 0,
      stderr: "",
    });
  }
  return ends.map((e) => e.report as HostReport);
}

/** Every acknowledged text is stored exactly once, in its session, and each session is one chain. */
async function expectAckedOnce(schema: string, reports: HostReport[]): Promise<void> {
  const rows = await admin.query<{
    session_id: string;
    line: string;
    entry_id: string | null;
    parent_id: string | null;
  }>(
    `SELECT session_id, line, entry_id, parent_id FROM "${schema}".entries ORDER BY session_id, seq`,
  );
  const stored = new Map<string, number>();
  let previous: { session: string; id: string | null } | undefined;
  for (const row of rows.rows) {
    const record = JSON.parse(row.line);
    if (record.type === "message") {
      const key = `${row.session_id} ${record.message.content}`;
      stored.set(key, (stored.get(key) ?? 0) + 1);
      // One chain: each message continues the line before it in its session.
      const parent = previous?.session === row.session_id ? previous.id : null;
      expect(row.parent_id).toBe(parent);
    }
    // The header starts the chain: its first entry has no parent.
    previous = { session: row.session_id, id: record.type === "session" ? null : row.entry_id };
  }
  const acked = reports.flatMap((r) => r.acked);
  expect(acked.length).toBeGreaterThan(0);
  for (const { session, text } of acked) expect(stored.get(`${session} ${text}`)).toBe(1);
}

describe("connections dropped inside a transaction, hosts as processes", () => {
  it("pg_terminate_backend inside openSession and a first write: every host lives, the call rejects saying why, the retry works", async () => {
    const hit: { host: string; query: string }[] = [];
    const hosts = { t0a: 0, t0b: 0, t5: 5 };
    const { schema, ends } = await withHosts(hosts, async () => {
      // Terminates every host backend caught between two statements of a transaction (only
      // the load and the first write run several), until each host was hit in both a few
      // times. The candidates are chosen first (materialised), so that only they are hit.
      const until = Date.now() + 30_000;
      // A host leaves the storm for a kind of call once it was hit twice in it: a host that
      // retries is then hit a few times, not on every try of the same call. CASE decides
      // before anything is terminated (a WHERE may evaluate its terms in any order).
      const wanting = (re: RegExp) =>
        Object.keys(hosts).filter(
          (h) => hit.filter((k) => k.host === h && re.test(k.query)).length < 2,
        );
      for (;;) {
        const [load, create] = [wanting(LOAD), wanting(CREATE)];
        if ((load.length === 0 && create.length === 0) || Date.now() > until) break;
        const killed = await admin.query<{ host: string; query: string }>(
          `WITH idle AS MATERIALIZED (
             SELECT pid, substr(application_name, 7) AS host, query FROM pg_stat_activity
              WHERE application_name LIKE 'fault-%' AND state = 'idle in transaction')
           SELECT host, query FROM idle
            WHERE CASE WHEN (host = ANY($1) AND query ~ $3) OR (host = ANY($2) AND query ~ $4)
                       THEN pg_terminate_backend(pid) ELSE false END`,
          [load, create, LOAD.source, CREATE.source],
        );
        hit.push(...killed.rows);
      }
    });
    const reports = expectAllLived(ends);
    const kills = (h: string, re: RegExp) => hit.filter((k) => k.host === h && re.test(k.query));
    console.log(
      `terminated ${hit.length} backends in a transaction; ${reports.map((r) => `${r.host}: ${kills(r.host, LOAD).length} in a load, ${kills(r.host, CREATE).length} in a first write, ${r.failures.length} rejections, ${r.counts.open} opens, ${r.counts.create} creates`).join("; ")}`,
    );
    for (const r of reports) {
      expect(kills(r.host, LOAD).length).toBeGreaterThanOrEqual(2);
      expect(kills(r.host, CREATE).length).toBeGreaterThanOrEqual(2);
    }
    for (const r of reports.filter((x) => x.retries === 0)) {
      // The fault reached the calls themselves, and said what happened.
      expect(r.failures.map((f) => f.call)).toEqual(expect.arrayContaining(["open", "create"]));
      for (const f of r.failures) expect(f.message).toMatch(CLEAR);
    }
    // Retried (5 from 50 ms), a terminated transaction reaches no call of the host.
    expect(reports.filter((r) => r.retries > 0).flatMap((r) => r.failures)).toEqual([]);
    await expectAckedOnce(schema, reports);
  });

  it("the server crashes (SIGQUIT) while hosts open sessions and write first lines: every host lives; with retries none of it reaches the caller", async () => {
    let inTransaction: string[] = [];
    const { schema, ends } = await withHosts({ c0a: 0, c0b: 0, c8: 8 }, async () => {
      // Wait until a host is inside a load or a first write, then crash the server.
      const until = Date.now() + 20_000;
      while (inTransaction.length === 0 && Date.now() < until) {
        const r = await admin.query<{ query: string }>(
          `SELECT query FROM pg_stat_activity
            WHERE application_name LIKE 'fault-%' AND state = 'idle in transaction'`,
        );
        inTransaction = r.rows.map((x) => x.query);
      }
      await server.restart(() => new Promise((r) => setTimeout(r, 300)), "SIGQUIT");
    });
    const reports = expectAllLived(ends);
    console.log(
      `crash with ${inTransaction.length} host backends in a transaction; ${reports.map((r) => `${r.host}: ${r.failures.length} rejections`).join("; ")}`,
    );
    expect(inTransaction.length).toBeGreaterThan(0);
    const failures = reports.filter((r) => r.retries === 0).flatMap((r) => r.failures);
    expect(failures.length).toBeGreaterThan(0);
    for (const f of failures) expect(f.message).toMatch(CLEAR);
    // Retried (8 from 50 ms: 12.75 s), a crash and a restart reach no call of the host.
    expect(reports.filter((r) => r.retries > 0).flatMap((r) => r.failures)).toEqual([]);
    await expectAckedOnce(schema, reports);
  });
});

/** The last statement of a backend inside a load (lease, session row, lines) or a first write. */
const LOAD = /lease_token = lease_token \+ 1|FOR NO KEY UPDATE|SELECT line, raw/;
const CREATE = /INSERT INTO \S+\.(sessions|entries)/;
