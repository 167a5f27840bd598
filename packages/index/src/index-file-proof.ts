/**
 * Whether a file may be used (and, if damaged, deleted) as the index: only a file proven to be
 * an index of ours, or one with nothing in it to lose. An index names itself in SQLite's
 * header (`application_id`, bytes 68–71); an index made before that mark existed is known by
 * its tables, all of them ours. Anything else (a session `.jsonl`, a notes file, another
 * program's database, a FIFO or a device) is foreign: it is neither opened by SQLite for
 * writing nor removed.
 */

import { closeSync, constants, lstatSync, openSync, readSync, statSync } from "node:fs";
import { openSqlite } from "./sqlite.js";

/** The index's mark in SQLite's header: "piSX". */
export const INDEX_APPLICATION_ID = 0x70695358;

/** What {@link proveIndexFile} found. */
export type IndexFileProof =
  /** Nothing there: SQLite makes the file. */
  | { readonly kind: "absent" }
  /** An empty file, or a SQLite database without a table: nothing in it to lose. */
  | { readonly kind: "empty" }
  /** An index of ours (maybe damaged past its header). */
  | { readonly kind: "ours" }
  /** Anything else, with why, in a few words. */
  | { readonly kind: "foreign"; readonly reason: string };

const SQLITE_HEADER = "SQLite format 3\0";

/** The tables an index ever had (FTS5 adds the `entry_text_*` shadow tables). */
const INDEX_TABLES = /^(files|file_text|file_usage|file_folds|entries|entry_text(_\w+)?)$/;

/** Looks at `file` without changing it (see the module comment). */
export function proveIndexFile(file: string): IndexFileProof {
  let size: number;
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats === undefined) {
      // A dangling symlink would make SQLite create its target somewhere else.
      const link = lstatSync(file, { throwIfNoEntry: false });
      return link === undefined ? { kind: "absent" } : foreign("a symlink to nothing");
    }
    if (!stats.isFile()) return foreign("not a regular file");
    size = stats.size;
  } catch (error) {
    return foreign(`cannot look at it: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  if (size === 0) return { kind: "empty" };
  const head = Buffer.alloc(100);
  try {
    // Non-blocking: were it swapped for a FIFO since the stat, the open must not wait.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return foreign(`cannot read it: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  if (head.toString("latin1", 0, 16) !== SQLITE_HEADER) return foreign("not a SQLite file");
  const applicationId = head.readUInt32BE(68);
  if (applicationId === INDEX_APPLICATION_ID) return { kind: "ours" };
  if (applicationId !== 0) return foreign("another program's SQLite database");
  return byTables(file);
}

/**
 * A SQLite file without our mark in its header: ours when SQLite (reading through a WAL the
 * header may not show yet) gives our mark or only our tables, empty without a table.
 */
function byTables(file: string): IndexFileProof {
  try {
    const db = openSqlite(file, { readOnly: true, timeout: 5000 });
    try {
      const id = db.prepare("PRAGMA application_id").get() as { application_id: number };
      if (id.application_id === INDEX_APPLICATION_ID) return { kind: "ours" };
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
      }[];
      if (tables.length === 0) return { kind: "empty" };
      return tables.every((t) => INDEX_TABLES.test(t.name))
        ? { kind: "ours" }
        : foreign("a SQLite database with other tables");
    } finally {
      db.close();
    }
  } catch (error) {
    return foreign(`an unreadable SQLite file: ${(error as Error).message.split("\n")[0]}`);
  }
}

const foreign = (reason: string): IndexFileProof => ({ kind: "foreign", reason });
