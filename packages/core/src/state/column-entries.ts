import type { SessionEntry } from "../schema/types.js";
import { type EntryColumns, handleAt, logFromColumns } from "./entry-log.js";

/**
 * The entries of `columns` (handed over) as callers of a loaded session get them: each answers
 * `id`, `parentId`, `type` (and a message's `role`) from the columns and decodes its real record
 * from `columns.source` at any other read (see entry-handle.ts); held slots are given as they are.
 * For a reader that knows the tree fields of a file's lines (the session index) and must hand
 * core's tree and context builders entries without reading every line.
 */
export function entriesOfColumns(columns: EntryColumns): SessionEntry[] {
  const log = logFromColumns(columns);
  const entries = new Array<SessionEntry>(log.length);
  for (let pos = 0; pos < log.length; pos++) entries[pos] = handleAt(log, pos);
  return entries;
}
