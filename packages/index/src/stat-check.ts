/**
 * A sync's shortcut. When every session file under a root is vouched for by its stat alone (a
 * settled row, with the same device, inode, size, mtime and ctime: `settled.ts`) and every row
 * a sync covers still has its file, a full sync would read nothing, write nothing and change no
 * row: it can be skipped. Checking that costs one stat per file and one query, and builds no
 * listing info, so a search over an unchanged folder does not pay for a listing first.
 */

import { statSync } from "node:fs";
import { dirname } from "node:path";
import type { Database, Statement } from "better-sqlite3";
import { coveredBySync, sessionFilesIn } from "./session-files.js";
import { type RowStamp, vouchedByStat } from "./settled.js";

/** A row as the check reads it; `session` is 1 when its stored answer is a session's. */
type StampRow = RowStamp & { readonly path: string; readonly session: number };

const prepared = new WeakMap<Database, Statement<[string, string], StampRow>>();

function stampsOf(db: Database, prefix: string): StampRow[] {
  let st = prepared.get(db);
  if (st === undefined) {
    st = db.prepare(
      `SELECT path, dev, ino, size, mtime_ms, ctime_ms,
              settled AND answer IS NOT NULL AS settled, answer <> 'null' AS session
       FROM files WHERE path > ? AND path < ?`,
    );
    prepared.set(db, st);
  }
  return st.all(prefix, `${prefix}\u{10ffff}`);
}

/** What the stat check found: how many files, and how many of them are sessions. */
export interface Unchanged {
  readonly files: number;
  readonly sessions: number;
}

/**
 * The files under `root` when a sync of it would change nothing; undefined as soon as one file
 * is not vouched for by its stat (changed, new, unsettled, vanished) or a covered row has no
 * file any more: then the full sync runs and sorts it out.
 */
export function unchangedUnder(db: Database, root: string): Unchanged | undefined {
  const rows = new Map<string, StampRow>();
  for (const row of stampsOf(db, `${root}/`)) {
    if (coveredBySync(root, dirname(row.path))) rows.set(row.path, row);
  }
  let sessions = 0;
  const files = sessionFilesIn(root);
  for (const path of files) {
    const row = rows.get(path);
    if (row === undefined) return undefined;
    let stamp: ReturnType<typeof statSync>;
    try {
      stamp = statSync(path, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (stamp === undefined || !vouchedByStat(row, stamp)) return undefined;
    rows.delete(path);
    sessions += row.session;
  }
  return rows.size === 0 ? { files: files.length, sessions } : undefined;
}
