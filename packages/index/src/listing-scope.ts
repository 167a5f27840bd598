/**
 * The scopes of the index's listings (which rows a listing covers, so that the rows of files
 * it did not meet can be dropped as gone) and that drop itself.
 */

import { dirname } from "node:path";
import type { Database } from "better-sqlite3";
import type { IndexInfoCache } from "./index-cache.js";
import type { Scope } from "./index-options.js";
import { isProjectDir } from "./session-files.js";
import type { Statements } from "./statements.js";

/** The scope of one directory's listing. */
export function dirScope(st: Statements, dir: string): Scope {
  return {
    inScope: (rowDir) => rowDir === dir,
    prefix: `${dir}/`,
    stored: () => st.pathsInDir.all(dir),
  };
}

/** The scope of a listing of every project directory under `root`. */
export function projectsScope(db: Database, root: string): Scope {
  const prefix = `${root}/`;
  return {
    inScope: (rowDir) => isProjectDir(root, rowDir),
    prefix,
    stored: () =>
      db
        .prepare("SELECT id, path FROM files WHERE dir > ? AND dir < ?")
        .all(prefix, `${prefix}\u{10ffff}`) as { id: number; path: string }[],
  };
}

/** A scope that holds no row: a listing of given files, where nothing is taken for gone. */
export const NO_SCOPE: Scope = { inScope: () => false, prefix: null, stored: () => [] };

/**
 * Drops the rows of files under a listed scope that the listing did not meet (deleted): those
 * left of the rows it read up front (with maybe a few beside the scope, which `inScope` leaves
 * alone), or all the scope's when it met no file and read none. Returns how many it dropped.
 */
export function pruneGone(
  db: Database,
  st: Statements,
  cache: IndexInfoCache,
  scope: Scope,
): number {
  const rows = cache.rows?.values() ?? scope.stored();
  const gone: number[] = [];
  for (const row of rows) if (scope.inScope(dirname(row.path))) gone.push(row.id);
  if (gone.length > 0) {
    db.transaction(() => {
      for (const id of gone) st.deleteFile.run(id);
    })();
  }
  return gone.length;
}
