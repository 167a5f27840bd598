/**
 * The floor a durable append is measured against: the raw single-row INSERT, one per commit,
 * into a table of the entries table's shape (`LIKE … INCLUDING ALL`: its columns, primary key,
 * check and index), with the row an append of the store writes (the same line and columns),
 * by W connections at once, each waiting for its commit before the next. No session row, no
 * seq check, no lease, no listing texts: what any durable one-row-per-commit log costs on this
 * server. A second floor, `batchFloor`, is the same rows inserted W at a time in one statement
 * and one commit: the least work W concurrent appends need, whatever the store does.
 */
import type pg from "pg";
import { KEY_COLUMNS, keyArrays, keyValues, serialisedRow } from "../src/lines.js";
import { userMessage } from "./bench-inputs.js";

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

/** A floor: `writers` insert `appends` rows between them into the floor's table of `s`. */
export type Floor = (
  pool: pg.Pool,
  s: string,
  writers: number,
  appends: number,
) => Promise<number[]>;

/** One connection per writer, one row per statement and commit; each insert's latency in ms. */
export const rawFloor: Floor = async (pool, s, writers, appends) => {
  const run = runs++;
  const each = Math.ceil(appends / writers);
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      const id = `raw-${process.pid}-${run}-${w}`;
      for (let i = 0; i < each; i++) {
        const row = appendedRow(id, i);
        const t = performance.now();
        await pool.query({
          name: `raw-floor:${s}`,
          text: `INSERT INTO ${s}.raw_entries (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          values: [id, row.seq, row.line, ...keyValues(row), null],
        });
        latencies.push(performance.now() - t);
      }
    }),
  );
  return latencies;
};

/**
 * The same rows, `writers` at a time in one statement and one commit, one such commit after
 * another: what the server needs at least for W appends, however they are grouped.
 */
export const batchFloor: Floor = async (pool, s, writers, appends) => {
  const run = runs++;
  const rounds = Math.ceil(appends / writers);
  const latencies: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const rows = Array.from({ length: writers }, (_, w) => ({
      id: `batch-${process.pid}-${run}-${w}`,
      row: appendedRow(`batch-${w}`, i),
    }));
    const t = performance.now();
    await pool.query({
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
};
