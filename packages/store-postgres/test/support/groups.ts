/** Append groups made by hand, for tests that send them past a manager. */
import type { SessionConflictError } from "@pi-sessions/core";
import type pg from "pg";
import { type AppendGroup, commitGroups, type RoundGroup } from "../../src/append-groups.js";
import type { LineRow } from "../../src/lines.js";

/** A group of one line without a lease, texts or state: the seq alone decides. */
export function unleasedGroup(id: string, location: string, row: LineRow): AppendGroup {
  return { id, location, rows: [row], texts: [null], lease: undefined, state: null, renew: true };
}

/** `commitGroups` on a connection of `pool`, checked out for the round and given back. */
export async function commitOnPool(
  pool: pg.Pool,
  s: string,
  round: readonly RoundGroup[],
): Promise<(SessionConflictError | undefined)[]> {
  const client = await pool.connect();
  try {
    return await commitGroups(client, s, round);
  } finally {
    client.release();
  }
}
