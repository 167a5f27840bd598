/**
 * A lone leased writer's line, inserted without updating its session row (the fast path of
 * group commit, see `append-groups.ts`).
 */
import type pg from "pg";
import { KEY_COLUMNS, keyValues, type LineRow } from "./lines.js";
import { perSchema, sendNamed } from "./named-statement.js";
import { NEXT_SEQ_FLOOR } from "./session-head.js";
import type { Lease } from "./writes.js";

/** What the fast path reads of a group (an `AppendGroup` of one line). */
export interface LeasedLine {
  readonly id: string;
  readonly rows: readonly LineRow[];
  readonly texts: readonly (string | null)[];
  readonly lease: Lease | undefined;
}

/** A one-line group's first parameters: session, seq, line and key columns ($1 to $8). */
export function lineValues(group: LeasedLine): unknown[] {
  const row = group.rows[0] as LineRow;
  return [group.id, row.seq, row.line, ...keyValues(row)];
}

/**
 * A leased writer's lone line, without the claim's UPDATE (see the module notes): inserted
 * only while the session row holds the writer's lease token (under its share lock) and the
 * line's seq is the session's next: the row's next seq, or one past a stored line. A line at
 * that seq already (another writer's, or our own committed try) fails the statement on its
 * key, which `commitGroups` answers as a refused group (no conflict clause: a speculative
 * insert costs every append an extra WAL record, for a case that is rare).
 */
export function insertLeased(
  client: pg.ClientBase,
  s: string,
  group: LeasedLine,
): Promise<string[]> {
  const statement = leasedText(s);
  return sendNamed(client, {
    name: statement.name,
    text: statement.text,
    values: [...lineValues(group), group.lease?.token ?? null, group.texts[0] ?? null],
  }).then((inserted) => (inserted.rowCount === 1 ? [group.id] : []));
}

/**
 * The fast path's statement (see `insertLeased`). Its seq check reads the row's next seq or
 * the line before: lines are contiguous, so a line at seq - 1 and none at seq (the key) makes
 * seq the next; a seq past the last line (the session shortened under the writer) finds
 * neither and inserts nothing, so it never leaves a gap.
 */
const leasedText = perSchema((s) => ({
  name: `pi-sessions-append-leased:${s}`,
  text: `INSERT INTO ${s}.entries (session_id, seq, line, ${KEY_COLUMNS}, info_texts)
     SELECT s.id, $2, $3, $4, $5, $6, $7, $8, $10 FROM ${s}.sessions s
      WHERE s.id = $1 AND s.lease_token = $9
        AND ($2::bigint = s.${NEXT_SEQ_FLOOR}
             OR EXISTS (SELECT 1 FROM ${s}.entries p WHERE p.session_id = $1 AND p.seq = $2 - 1))
        FOR SHARE OF s`,
}));
