/**
 * Where a lone durable writer's append latency goes, phase by phase (a diagnostic, not a
 * target): from the call until the store's group committer is handed the group (the
 * manager's append, the queue, the sink's listing fold of the line), until its round starts
 * (the committer's next tick when nothing is on the wire, else its turn of the event loop),
 * until the statement is sent, the statement itself (sent to the server until its answer),
 * and from the answer until `flush()` resolves; beside it, in the same process and on the
 * same pool, a bare named single-row INSERT on a connection it holds. Medians of `--appends`
 * appends per round, each round printed (the machine is shared: read the phases side by side).
 *
 *   pnpm --filter @pi-sessions/store-postgres exec node --conditions=@pi-sessions/source \
 *     --import tsx bench/latency-phases.ts [-- --appends=N --rounds=N]
 *
 * It times the store's committer and the connections its pool hands out by wrapping their
 * methods on the instances (private members reached through a cast): a measuring tool only,
 * never a pattern for the code.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { startPostgres } from "@pi-sessions/test-utils/pg-server";
import { PostgresSessionStore } from "../src/index.js";
import { sendNamed } from "../src/named-statement.js";
import { flag, userMessage } from "./bench-inputs.js";

const APPENDS = flag("appends", 1500);
const ROUNDS = flag("rounds", 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const us = (xs: number[]) => `${Math.round(median(xs) * 1000)}`;

/** The instance members timed: the committer's `submit` and `run`. */
interface Timed {
  committer: { submit: (g: unknown) => Promise<void>; run: (r: unknown) => Promise<void> };
}

/** A query as the store sends it: answered through its own callback (`sendNamed`). */
interface Answered {
  submit?: unknown;
  callback?: (error: unknown, result: unknown) => void;
}

async function main(): Promise<void> {
  const server = await startPostgres({ fsync: true });
  const schema = `phases_${process.pid}`;
  const store = await PostgresSessionStore.connect({ connectionString: server.url, schema });
  const timed = store as unknown as Timed;
  const submit = timed.committer.submit.bind(timed.committer);
  const run = timed.committer.run.bind(timed.committer);
  const at = { submit: 0, round: 0, sent: 0, answered: 0 };
  // Rounds go on a connection the committer keeps: each connection the pool hands out is
  // timed from the query's send to its callback.
  const timedClients = new WeakSet<object>();
  store.pool.on("acquire", (client) => {
    if (timedClients.has(client)) return;
    timedClients.add(client);
    const send = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (q, ...rest) => {
      at.sent = performance.now();
      const answered = q as Answered;
      const callback = answered?.callback;
      if (typeof answered?.submit === "function" && callback) {
        answered.callback = (error, result) => {
          at.answered = performance.now();
          callback(error, result);
        };
      }
      return send(q, ...rest);
    };
  });
  timed.committer.submit = (g) => {
    at.submit = performance.now();
    return submit(g);
  };
  timed.committer.run = (r) => {
    at.round = performance.now();
    return run(r);
  };
  const cwd = mkdtempSync(join(tmpdir(), "pi-pg-phases-"));
  await store.pool.query(
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
    // The bare insert on a connection of its own, held as the committer holds its own.
    const bare: number[] = [];
    const client = await store.pool.connect();
    for (let i = 0; i < APPENDS; i++) {
      const t0 = performance.now();
      const line = JSON.stringify(userMessage(i));
      await sendNamed(client, {
        name: `bare:${store.s}`,
        text: `INSERT INTO ${store.s}.bare VALUES ($1, $2, $3)`,
        values: [`${round}`, i, line],
      });
      bare.push(performance.now() - t0);
    }
    client.release();
    const phases = [p.toSubmit, p.toRound, p.toSend, p.statement, p.toFlush].map(us).join(" ");
    console.log(`round ${round}: ${phases} = ${us(p.total)} | ${us(bare)}`);
  }
  await store.close();
  await server.stop();
}

await main();
