/**
 * The floor of the work one fenced append must do, beside the raw single-row INSERT
 * (`raw-floor.ts`): the same row into the same table, in one statement and one commit, but
 * only if a session row says the writer may append. The session row is the narrowest one
 * can be (`floor_heads`: id, next seq, lease token and expiry; none of the store's header,
 * listing or state columns), so what is measured is the check itself:
 *
 * - `seqLeaseFloor`: the row's next seq and lease token checked and the seq advanced and the
 *   lease renewed by an UPDATE, the line inserted only if it did: what a store that keeps its
 *   next seq on the session row (as this one does) needs at least, per append.
 * - `leaseLockFloor`: the lease token checked under a share lock of the row (a take of the
 *   lease, an UPDATE, waits for it and vice versa, so a fenced writer's line never lands after
 *   the lease passed), the seq left to the primary key, no UPDATE: the least any exactly
 *   fenced append needs.
 *
 * - `storeStatementFloor`: the store's own statement for a group of one line (`commitGroups`:
 *   the line with its listing texts inserted under a share lock of its session row, as a lone
 *   writer sends it between renewals of its lease; with `renew`, the claim's UPDATE of the
 *   session row with the header and listing state, as it sends it to renew), sent
 *   as the store sends it but without the manager, its queue or the group committer: how much
 *   of the store's distance to the raw insert is the statement, and how much the rest; the
 *   same without the listing texts (`texts: false`), to tell their price from the row's; and
 *   with each line made by a manager's append first (`manager: true`): the work a lone
 *   durable append cannot skip, in sequence, with nothing of the store's queue, group
 *   committer or flush between them (the store's own floor).
 *
 * Each statement must insert its row (a refused check fails the run): the floor does the work.
 */
import { memoryStore, SessionManager } from "@pi-sessions/core";
import { memorySink } from "@pi-sessions/core/internal";
import type pg from "pg";
import { commitGroups } from "../src/append-groups.js";
import { appendedRows, LineFold } from "../src/info-fold.js";
import { KEY_COLUMNS, keyValues, type LineRow, serialisedRow } from "../src/lines.js";
import { sendNamed } from "../src/named-statement.js";
import type { PostgresSessionStore } from "../src/postgres-store.js";
import { nextSeqSql } from "../src/session-head.js";
import { userMessage } from "./bench-inputs.js";
import { startingGate } from "./cpu.js";
import { appendedRow, type Floor, onConnection } from "./raw-floor.js";

const COLUMNS = `session_id, seq, line, ${KEY_COLUMNS}, info_texts`;
/** The lease token every floor session holds. */
const TOKEN = 1;

/** Creates the floors' session rows' table (once per schema). */
export async function createHeadsTable(pool: pg.Pool, s: string): Promise<void> {
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${s}.floor_heads (
       id text PRIMARY KEY, next_seq bigint NOT NULL, lease_token bigint NOT NULL,
       lease_until timestamptz)`,
  );
}

let runs = 0;

/** A floor's statement, sent by name. */
interface NamedStatement {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

/** One connection per writer, each with its session row; `statement` appends row `i`. */
function checkedFloor(
  name: string,
  statement: (s: string, id: string, i: number) => NamedStatement,
): Floor {
  return async (pool, s, writers, appends, start = () => {}) => {
    const run = runs++;
    const each = Math.ceil(appends / writers);
    const latencies: number[] = [];
    const ready = startingGate(writers, start);
    await Promise.all(
      Array.from({ length: writers }, (_, w) =>
        onConnection(pool, async (client) => {
          const id = `${name}-${process.pid}-${run}-${w}`;
          await client.query(
            `INSERT INTO ${s}.floor_heads (id, next_seq, lease_token, lease_until)
             VALUES ($1, 1, $2, now() + interval '30 seconds')`,
            [id, TOKEN],
          );
          await ready();
          for (let i = 0; i < each; i++) {
            const t = performance.now();
            const done = await sendNamed(client, statement(s, id, i));
            latencies.push(performance.now() - t);
            if (done.rowCount !== 1) throw new Error(`${name}: the check refused append ${i}`);
          }
        }),
      ),
    );
    return latencies;
  };
}

/** The row's next seq and token checked, the seq advanced and the lease renewed, then the insert. */
export const seqLeaseFloor: Floor = checkedFloor("seq-lease", (s, id, i) => {
  const row = appendedRow(id, i);
  return {
    name: `seq-lease-floor:${s}`,
    text: `WITH claimed AS (
       UPDATE ${s}.floor_heads SET next_seq = $2 + 1, lease_until = now() + interval '30 seconds'
        WHERE id = $1 AND next_seq = $2 AND lease_token = $9 RETURNING id)
     INSERT INTO ${s}.raw_entries (${COLUMNS})
     SELECT id, $2, $3, $4, $5, $6, $7, $8, NULL FROM claimed`,
    values: [id, row.seq, row.line, ...keyValues(row), TOKEN],
  };
});

/** The token checked under a share lock of the row, the seq left to the primary key. */
export const leaseLockFloor: Floor = checkedFloor("lease-lock", (s, id, i) => {
  const row = appendedRow(id, i);
  return {
    name: `lease-lock-floor:${s}`,
    text: `INSERT INTO ${s}.raw_entries (${COLUMNS})
     SELECT id, $2, $3, $4, $5, $6, $7, $8, NULL FROM ${s}.floor_heads
      WHERE id = $1 AND lease_token = $9 FOR SHARE`,
    values: [id, row.seq, row.line, ...keyValues(row), TOKEN],
  };
});

/** What {@link storeStatementFloor} sends and does beside the statement. */
export interface StatementFloorOptions {
  /** The listing texts with each line (default true). */
  readonly texts?: boolean;
  /** The claim's UPDATE, as the sink sends it to renew the lease (default false). */
  readonly renew?: boolean;
  /**
   * Each line made by a manager's append first, kept in memory (default false): the work no
   * store can skip (pi's API folds every append into the session's state), then the statement.
   */
  readonly manager?: boolean;
}

/** Fails the floor when a row's query columns are not its own line's (it must do the work). */
function sameColumns(row: LineRow | undefined, own: LineRow): void {
  const columns = (r: LineRow | undefined) => (r ? keyValues(r).join("\u0001") : "");
  if (columns(row) !== columns(own)) {
    throw new Error(`store statement floor: a row with another line's columns (${columns(row)})`);
  }
}

/**
 * A manager kept in memory whose appends hand their line over: `appended()` is the line of the
 * manager's last append, exactly as it serialised it.
 */
function lineCatcher(): { readonly sm: SessionManager; appended(): string } {
  let line = "";
  const sink = {
    ...memorySink,
    appendLine: (l: string) => {
      line = l;
    },
  };
  const store = { ...memoryStore, create: () => sink };
  return { sm: SessionManager.withStore(store, "/work/bench"), appended: () => line };
}

/**
 * The store's statement for one line at a time, on sessions the store wrote (header and first
 * message, so the session row is as wide as a real one's), each line with the texts the
 * listing fold collects from it, as the sink sends them; with `manager`, after the manager's
 * append that made the line (no queue, no group committer between them).
 */
export function storeStatementFloor(
  store: PostgresSessionStore,
  options: StatementFloorOptions = {},
): Floor {
  const { texts = true, renew = false, manager = false } = options;
  return async (pool, s, writers, appends, start = () => {}) => {
    const each = Math.ceil(appends / writers);
    const latencies: number[] = [];
    const ready = startingGate(writers, start);
    await Promise.all(
      Array.from({ length: writers }, async () => {
        const sm = SessionManager.withStore(store, "/work/bench");
        sm.appendMessage(userMessage(-1));
        await sm.flush();
        const id = sm.getSessionId();
        const next = await pool.query<{ next_seq: string; lease_token: string; header: string }>(
          `SELECT ${nextSeqSql(s, "s")} AS next_seq, lease_token, header FROM ${s}.sessions s
            WHERE id = $1`,
          [id],
        );
        const head = next.rows[0];
        if (!head) throw new Error(`store statement floor: no session ${id}`);
        const fold = LineFold.fresh();
        fold.line(head.header);
        const lease = { owner: "floor", token: Number(head.lease_token), ttlMs: 30_000 };
        // Without the manager, the lines are made before the appends: only the statement's
        // own work (the listing fold, the row, the round trip) is between one and the next.
        const catcher = manager ? lineCatcher() : undefined;
        const lines = catcher
          ? []
          : Array.from({ length: each }, (_, i) => appendedRow(id, i).line as string);
        // One connection held for every statement, as the store's group committer keeps one.
        await onConnection(pool, async (client) => {
          await ready();
          for (let i = 0; i < each; i++) {
            const t = performance.now();
            let line = lines[i] as string;
            if (catcher) {
              catcher.sm.appendMessage(userMessage(i));
              line = catcher.appended();
            }
            // The sink's own rows: folded for their listing texts, or (no texts) parsed alone.
            const made = appendedRows(texts ? fold : undefined, Number(head.next_seq) + i, [line]);
            const group = {
              id,
              location: id,
              rows: made.rows,
              texts: made.texts,
              lease,
              state: null,
              // false: as the sink sends a lone writer's line between its lease's renewals (the
              // fast path); true: the claim's UPDATE, as it renews the lease.
              renew,
            };
            const [verdict] = await commitGroups(client, s, [{ group, retrying: false }]);
            latencies.push(performance.now() - t);
            if (verdict) throw verdict;
            // Once, outside the timing: the row holds its own line's columns, as the sink's does.
            if (i === 0) sameColumns(made.rows[0], serialisedRow(0, line));
          }
        });
        sm.close();
      }),
    );
    return latencies;
  };
}
