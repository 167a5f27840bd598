/**
 * A sync's shortcut. A file its stat alone vouches for (a settled row, with the same device,
 * inode, size, mtime and ctime: `settled.ts`) is one a sync would neither read nor write, so
 * while every row a sync covers still has its file, syncing only the other files changes what
 * a full sync would. Finding them costs one stat per file and one query and builds no listing
 * info, so a search pays for the few files pi wrote since, not for a listing of all of them.
 */

import { statSync } from "node:fs";
import { dirname } from "node:path";
import { knownGone } from "./listing-scope.js";
import { type RowStamp, vouchedByStat } from "./settled.js";
import { type Database, prepareArrays, type Statement } from "./sqlite.js";
import { coveredBySync, sessionFilesIn } from "./sync-covered-files.js";

/** A row as the check reads it; `session` is 1 when its stored answer is a session's. */
type StampRow = RowStamp & { readonly path: string; readonly session: number };

/** A {@link StampRow} as the statement gives it. */
type RawStamp = [string, number, number, number, number, number, number, number, string];

/**
 * The statement of one connection. It gives arrays: an object per row made by SQLite's binding
 * costs a named property write per column, twice what the row itself costs to read. A row
 * counts as settled only when it holds its records (a search needs them).
 */
const prepared = new WeakMap<Database, Statement<[string, string], RawStamp>>();

function stampsOf(db: Database, prefix: string): StampRow[] {
  let st = prepared.get(db);
  if (st === undefined) {
    st = prepareArrays<[string, string], RawStamp>(
      db,
      `SELECT path, dev, ino, size, mtime_ms, ctime_ms,
              settled AND answer IS NOT NULL AND filled = 2, session, rules
       FROM files WHERE path > ? AND path < ?`,
    );
    prepared.set(db, st);
  }
  return st.all(prefix, `${prefix}\u{10ffff}`).map((r) => ({
    path: r[0],
    dev: r[1],
    ino: r[2],
    size: r[3],
    mtime_ms: r[4],
    ctime_ms: r[5],
    settled: r[6],
    session: r[7],
    rules: r[8],
  }));
}

/** What the stat check found under a root. */
export interface StatCheck {
  /** Session files under the root. */
  readonly files: number;
  /** Of those, the ones their stat vouches for that are sessions. */
  readonly sessions: number;
  /** The files their stat does not vouch for (changed, new, unsettled, vanished). */
  readonly pending: readonly string[];
  /** Whether a row a sync covers has no file any more (a full sync drops it). */
  readonly lost: boolean;
  /** Folders holding covered rows whose files could not be looked at (the rows are kept). */
  readonly unreadable: readonly string[];
}

/**
 * Which files under `root` a sync would have to look at: a sync of only those (none when
 * `pending` is empty) changes what a full one would, unless a covered row lost its file.
 */
export function statCheck(db: Database, root: string): StatCheck {
  // Rows of deeper directories are in the map too (telling them apart costs a `dirname` per
  // row): only the rows the walk did not meet are looked at for that.
  const rows = new Map(stampsOf(db, `${root}/`).map((row) => [row.path, row]));
  let sessions = 0;
  const pending: string[] = [];
  const files = sessionFilesIn(root);
  for (const path of files) {
    const row = rows.get(path);
    rows.delete(path);
    let stamp: ReturnType<typeof statSync>;
    try {
      stamp = statSync(path, { throwIfNoEntry: false });
    } catch {
      stamp = undefined;
    }
    if (row === undefined || stamp === undefined || !vouchedByStat(row, stamp)) pending.push(path);
    else sessions += row.session;
  }
  let lost = false;
  const unreadable = new Set<string>();
  for (const path of rows.keys()) {
    const dir = dirname(path);
    if (!coveredBySync(root, dir)) continue;
    if (knownGone(path)) lost = true;
    else unreadable.add(dir);
  }
  return { files: files.length, sessions, pending, lost, unreadable: [...unreadable].sort() };
}
