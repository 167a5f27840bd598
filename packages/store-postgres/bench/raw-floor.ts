/**
 * The floor a durable append is measured against: the raw single-row INSERT, one per commit,
 * into a table of the entries table's shape (`LIKE … INCLUDING ALL`: its columns, primary key,
 * check and index), with the row an append of the store writes (the same line and columns),
 * by W connections at once, each held by its writer (as the store's group committer keeps its
 * connection), each waiting for its commit before the next. No session row, no
 * seq check, no lease, no listing texts: what any durable one-row-per-commit log costs on this
 * server. A second floor, `batchFloor`, is the same rows inserted W at a time in one statement
 * and one commit: the least work W concurrent appends need, whatever the store does.
 */
import type pg from "pg";
import { KEY_COLUMNS, keyArrays, keyValues, serialisedRow } from "../src/lines.js";
import { sendNamed } from "../src/named-statement.js";
import { userMessage } from "./bench-inputs.js";
import { startingGate } from "./cpu.js";

/** The line of the `i`th append of a writer: a user message as the store writes it. */
export function appendedRow(writer: string, i: number) {
  const entry = {
    type: "message",
    id: `${writer}-${i}`.slice(-8),
    parentId: i === 0 ? null : `${writer}-${i - 1}`.slice(-8),
    timestamp: new Date(1_700_000_000_000 + i).toISOString(),
    message: userMessage(i),
  };
  return serialisedRow(i + 1, JSON.stringify(entry));
}

/** Creates the floor's table (once per schema). */
export async function createFloorTable(pool: pg.Pool, s: string): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS ${s}.raw_entries (LIKE ${s}.entries INCLUDING ALL)`);
}

const COLUMNS = `session_id, seq, line, ${KEY_COLUMNS}, info_texts`;

let runs = 0;

/**
 * Runs `work` on a connection of `pool` held throughout, as the store's group committer keeps
 * the connection of its last round: no floor pays a pool checkout per statement.
 */
export async function onConnection<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

/**
 * A floor: `writers` insert `appends` rows between them into the floor's table of `s`; each
 * calls `start` through a `startingGate` once set up (default: measured from the call).
 */
export type Floor = (
  pool: pg.Pool,
  s: string,
  writers: number,
  appends: number,
  start?: () => void,
) => Promise<number[]>;

/**
 * One row per statement and commit, each writer on a connection it holds (`held`), or through
 * `pool.query`, a connection checked out of the pool for each statement and given back (the
 * floor as this bench measured it before the store kept its connection); each insert's
 * latency in ms.
 */
function rawInsertFloor(held: boolean): Floor {
  return async (pool, s, writers, appends, start = () => {}) => {
    const run = runs++;
    const ready = startingGate(writers, start);
    const each = Math.ceil(appends / writers);
    const latencies: number[] = [];
    const name = `raw-floor:${s}`;
    const text = `INSERT INTO ${s}.raw_entries (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
    const insert = async (send: (values: unknown[]) => Promise<unknown>, w: number) => {
      const id = `raw-${process.pid}-${run}-${w}`;
      await ready();
      for (let i = 0; i < each; i++) {
        const row = appendedRow(id, i);
        const t = performance.now();
        await send([id, row.seq, row.line, ...keyValues(row), null]);
        latencies.push(performance.now() - t);
      }
    };
    await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        held
          ? onConnection(pool, (client) =>
              insert((values) => sendNamed(client, { name, text, values }), w),
            )
          : insert((values) => pool.query({ name, text, values }), w),
      ),
    );
    return latencies;
  };
}

/** The floor: one connection per writer, held, one row per statement and commit. */
export const rawFloor: Floor = rawInsertFloor(true);

/** The same inserts through `pool.query`, a checkout per statement (see `rawInsertFloor`). */
export const pooledRawFloor: Floor = rawInsertFloor(false);

/**
 * The same rows, `writers` at a time in one statement and one commit, one such commit after
 * another: what the server needs at least for W appends, however they are grouped.
 */
export const batchFloor: Floor = (pool, s, writers, appends, start = () => {}) =>
  onConnection(pool, async (client) => {
    const run = runs++;
    start();
    const latencies: number[] = [];
    for (let i = 0; i < Math.ceil(appends / writers); i++) {
      const rows = Array.from({ length: writers }, (_, w) => ({
        id: `batch-${process.pid}-${run}-${w}`,
        row: appendedRow(`batch-${w}`, i),
      }));
      const t = performance.now();
      await sendNamed(client, {
        name: `batch-floor:${s}`,
        text: `INSERT INTO ${s}.raw_entries (${COLUMNS})
               SELECT *, NULL FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[],
                                          $5::text[], $6::text[], $7::text[], $8::text[])`,
        values: [
          rows.map((r) => r.id),
          rows.map((r) => r.row.seq),
          rows.map((r) => r.row.line),
          ...keyArrays(rows.map((r) => r.row)),
        ],
      });
      const ms = performance.now() - t;
      for (let w = 0; w < writers; w++) latencies.push(ms);
    }
    return latencies;
  });
