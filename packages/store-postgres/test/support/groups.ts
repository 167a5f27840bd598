/** Append groups made by hand, for tests that send them past a manager. */
import type { AppendGroup } from "../../src/append-groups.js";
import type { LineRow } from "../../src/lines.js";

/** A group of one line without a lease, texts or state: the seq alone decides. */
export function unleasedGroup(id: string, location: string, row: LineRow): AppendGroup {
  return { id, location, rows: [row], texts: [null], lease: undefined, state: null, renew: true };
}
