/**
 * The scopes of the index's listings (which rows a listing covers, so that the rows of files
 * it did not meet can be dropped as gone) and that drop itself.
 */

import { lstatSync } from "node:fs";
import { dirname } from "node:path";
import type { IndexInfoCache } from "./index-cache.js";
import type { Scope } from "./index-options.js";
import { type Database, inTransaction, prepare } from "./sqlite.js";
import type { Statements } from "./statements.js";
import { isProjectDir } from "./sync-covered-files.js";

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
      prepare<[string, string], { id: number; path: string }>(
        db,
        "SELECT id, path FROM files WHERE dir > ? AND dir < ?",
      ).all(prefix, `${prefix}\u{10ffff}`),
  };
}

/** A scope that holds no row: a listing of given files, where nothing is taken for gone. */
export const NO_SCOPE: Scope = { inScope: () => false, prefix: null, stored: () => [] };

/**
 * Whether the file at `path` is known to be gone: its name no longer exists in a folder that
 * could be read. A file the walk did not meet because its folder could not be read (no
 * permission, an I/O error) is not known to be gone: its rows stay.
 */
export function knownGone(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) === undefined;
  } catch (error) {
    // ENOTDIR: the folder itself was replaced by a file, so the name is gone too.
    return (error as NodeJS.ErrnoException).code === "ENOTDIR";
  }
}

/** What {@link pruneGone} did: rows dropped, and the folders it could not look into. */
export interface Pruned {
  readonly dropped: number;
  /** Folders holding indexed files that could not be looked at (their rows are kept). */
  readonly unreadable: readonly string[];
}

/**
 * Drops the rows of files under a listed scope that the listing did not meet and that are
 * gone (see {@link knownGone}): those left of the rows it read up front (with maybe a few
 * beside the scope, which `inScope` leaves alone), or all the scope's when it met no file and
 * read none. A row of a file that could not be looked at is kept, and its folder reported.
 */
export function pruneGone(
  db: Database,
  st: Statements,
  cache: IndexInfoCache,
  scope: Scope,
): Pruned {
  const rows = cache.rows?.values() ?? scope.stored();
  const gone: number[] = [];
  const unreadable = new Set<string>();
  for (const row of rows) {
    const dir = dirname(row.path);
    if (!scope.inScope(dir)) continue;
    if (knownGone(row.path)) gone.push(row.id);
    else unreadable.add(dir);
  }
  if (gone.length > 0) {
    inTransaction(db, () => {
      for (const id of gone) st.deleteFile.run(id);
    });
  }
  return { dropped: gone.length, unreadable: [...unreadable].sort() };
}
