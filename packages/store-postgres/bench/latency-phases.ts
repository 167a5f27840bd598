/**
 * Where a lone durable writer's append latency goes, phase by phase (a diagnostic, not a
 * target): from the call until the store's group committer is handed the group (the
 * manager's append, the queue, the sink's listing fold of the line), until its round starts
 * (the committer's next tick when nothing is on the wire, else its turn of the event loop),
 * until the statement is sent, the statement itself (sent to the server until its answer),
 * and from the answer until `flush()` resolves; beside it, in the same process and on the
 * same pool, a bare named single-row INSERT. Medians of `--appends` appends per round, each
 * round printed (the machine is shared: read the phases side by side).
 *
 *   pnpm --filter @pi-sessions/store-postgres exec node --conditions=@pi-sessions/source \
 *     --import tsx bench/latency-phases.ts [-- --appends=N --rounds=N]
 *
 * It times the store's pool and committer by wrapping their methods on the instance (private
 * members reached through a cast): a measuring tool only, never a pattern for the code.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { startPostgres } from "@pi-sessions/test-utils/pg-server";
import pg from "pg";
import { PostgresSessionStore } from "../src/index.js";
import { flag, userMessage } from "./bench-inputs.js";

const APPENDS = flag("appends", 1500);
const ROUNDS = flag("rounds", 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const us = (xs: number[]) => `${Math.round(median(xs) * 1000)}`;

/** The instance members timed: the pool's `query`, the committer's `submit` and `run`. */
interface Timed {
  pool: { query: (...args: unknown[]) => Promise<unknown> };
  committer: { submit: (g: unknown) => Promise<void>; run: (r: unknown) => Promise<void> };
}

async function main(): Promise<void> {
  const server = await startPostgres({ fsync: true });
  const schema = `phases_${process.pid}`;
  const store = await PostgresSessionStore.connect({ connectionString: server.url, schema });
  const timed = store as unknown as Timed;
  const query = timed.pool.query.bind(timed.pool);
  const submit = timed.committer.submit.bind(timed.committer);
  const run = timed.committer.run.bind(timed.committer);
  const at = { submit: 0, round: 0, sent: 0, answered: 0 };
  timed.pool.query = (...args) => {
    at.sent = performance.now();
    return query(...args).then((r) => {
      at.answered = performance.now();
      return r;
    });
  };
  timed.committer.submit = (g) => {
    at.submit = performance.now();
    return submit(g);
  };
  timed.committer.run = (r) => {
    at.round = performance.now();
    return run(r);
  };
  const cwd = mkdtempSync(join(tmpdir(), "pi-pg-phases-"));
  await query(
    `CREATE TABLE ${store.s}.bare (id text, seq bigint, line text, PRIMARY KEY (id, seq))`,
  );
  console.log("µs, medians: toSubmit toRound toSend statement toFlush = total | bare INSERT");
  for (let round = 0; round < ROUNDS; round++) {
    const sm = SessionManager.withStore(store, cwd);
    sm.appendMessage(userMessage(-1));
    await sm.flush();
    const p = {
      toSubmit: [],
      toRound: [],
      toSend: [],
      statement: [],
      toFlush: [],
      total: [],
    } as Record<"toSubmit" | "toRound" | "toSend" | "statement" | "toFlush" | "total", number[]>;
    for (let i = 0; i < APPENDS; i++) {
      const t0 = performance.now();
      sm.appendMessage(userMessage(i));
      await sm.flush();
      const t1 = performance.now();
      p.toSubmit.push(at.submit - t0);
      p.toRound.push(at.round - at.submit);
      p.toSend.push(at.sent - at.round);
      p.statement.push(at.answered - at.sent);
      p.toFlush.push(t1 - at.answered);
      p.total.push(t1 - t0);
    }
    sm.close();
    const bare: number[] = [];
    for (let i = 0; i < APPENDS; i++) {
      const t0 = performance.now();
      const line = JSON.stringify(userMessage(i));
      const q = new pg.Query(`INSERT INTO ${store.s}.bare VALUES ($1, $2, $3)`, [
        `${round}`,
        i,
        line,
      ]);
      (q as pg.Query & { name: string }).name = `bare:${store.s}`;
      await query(q);
      bare.push(performance.now() - t0);
    }
    const phases = [p.toSubmit, p.toRound, p.toSend, p.statement, p.toFlush].map(us).join(" ");
    console.log(`round ${round}: ${phases} = ${us(p.total)} | ${us(bare)}`);
  }
  await store.close();
  await server.stop();
}

await main();
