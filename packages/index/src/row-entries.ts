/**
 * A file's rows as core's entries, each its real record: the tree fields (id, parentId, type, a
 * message's role, the timestamp siblings are ordered by) come from the rows' columns, and the record is read from the file at the row's
 * byte place (offset, length) the first time anything else of it is read, by core's own lazy
 * entries (`entriesOfColumns`), with the next lines in file order in the same read. Nothing is
 * made up: a field the columns do not hold is read from the line, and a line that no longer
 * holds its row's record is refused by core (`EntryUnreadableError`: the file changed).
 */

import type { SessionEntry } from "@pi-sessions/core";
import { entriesOfColumns } from "@pi-sessions/core/internal";
import type { LineReader, QueryRow } from "./session-rows.js";

/** Lines read with one that is asked for: the next rows in file order not read yet. */
const READ_AHEAD = 256;

/**
 * The entries of `rows` (in file order), with the records in `read` (by rowid) handed over as
 * they are; a row whose type or id the columns lack is read now (core's entries know a record
 * by them).
 */
export function rowEntries(
  rows: readonly QueryRow[],
  reader: LineReader,
  read: ReadonlyMap<number, SessionEntry>,
): SessionEntry[] {
  const unknown = rows.filter((r) => (r.type === null || r.id === null) && !read.has(r.rowid));
  const now = unknown.length === 0 ? undefined : reader.records(unknown);
  const n = rows.length;
  const ids = new Array<string>(n);
  const parents = new Array<unknown>(n);
  const types = new Array<unknown>(n);
  const roles = new Array<unknown>(n);
  const timestamps = new Array<unknown>(n);
  const slots = new Array<SessionEntry | string | undefined>(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i] as QueryRow;
    const record = read.get(row.rowid) ?? now?.get(row);
    ids[i] = (row.id ?? record?.id) as string;
    parents[i] = record === undefined ? row.parentId : record.parentId;
    types[i] = record === undefined ? row.type : record.type;
    roles[i] = row.role ?? undefined;
    // Siblings are ordered by it: the column spares the tree a read of each sibling's line.
    timestamps[i] = row.timestamp ?? undefined;
    slots[i] = record;
  }
  const source = {
    line(pos: number): string {
      const wanted: QueryRow[] = [];
      const at = new Map<QueryRow, number>();
      for (let i = pos; i < n && wanted.length < READ_AHEAD; i++) {
        if (i !== pos && slots[i] !== undefined) continue;
        wanted.push(rows[i] as QueryRow);
        at.set(rows[i] as QueryRow, i);
      }
      let text = "";
      reader.eachLine(wanted, (row, line) => {
        const i = at.get(row) as number;
        if (i === pos) text = line;
        // Core decodes a held text (and checks it) only when its entry is read.
        else slots[i] = line;
      });
      return text;
    },
  };
  return entriesOfColumns({ ids, parents, types, roles, timestamps, slots, source });
}
