/**
 * The plugins' usage-totals projection, folded while a file's records are indexed and its state
 * kept per file in `file_folds` (name, rule version, state, as the projection encodes it),
 * so that a session's usage is answered without reading every usage line again: the whole-tree
 * totals and the diagnostics are the state's, and only a branch the state has not cached needs
 * the records on the leaf's path. The fold, its version and its encoding are the plugins' own
 * (`usageTotals` declares them): the index only keeps the text. Entries are folded only while core's
 * shape fold finds the file regular, and only a regular file's queries are answered, so a
 * state left beside a file a damaged line made irregular is never read.
 */

import type { FoldContext, SessionEntry } from "@pi-sessions/core";
import { restoreFoldState, saveFoldState } from "@pi-sessions/core/internal";
import { type UsageTotalsState, usageTotals } from "@pi-sessions/plugins";
import { type Database, prepare, type Statement } from "./sqlite.js";

/** The statements of one connection's saved fold states. */
interface FoldStatements {
  readonly get: Statement<[number, string], { name: string; version: number; state: string }>;
  readonly put: Statement<[number, string, number, string], void>;
  readonly drop: Statement<[number, string], void>;
}

const prepared = new WeakMap<Database, FoldStatements>();

function statementsOf(db: Database): FoldStatements {
  let st = prepared.get(db);
  if (st === undefined) {
    st = {
      get: prepare(
        db,
        "SELECT name, version, state FROM file_folds WHERE file_id = ? AND name = ?",
      ),
      put: prepare(
        db,
        `INSERT INTO file_folds (file_id, name, version, state) VALUES (?, ?, ?, ?)
         ON CONFLICT (file_id, name) DO UPDATE SET version = excluded.version, state = excluded.state`,
      ),
      drop: prepare(db, "DELETE FROM file_folds WHERE file_id = ? AND name = ?"),
    };
    prepared.set(db, st);
  }
  return st;
}

/** The usage state saved for a file, if any under this rule version. */
function restore(db: Database, fileId: number): UsageTotalsState | undefined {
  const saved = statementsOf(db).get.get(fileId, usageTotals.name);
  return restoreFoldState(usageTotals, saved);
}

/**
 * What the projection may ask of the entries before the one it folds. It is folded only while
 * the shape fold finds every id new (a regular file), so no entry before has the id asked; it
 * never asks for a path.
 */
const REGULAR_CONTEXT: FoldContext = {
  position: 0,
  getEntry: () => undefined,
  pathTo: () => {
    throw new Error("the usage fold of the index keeps no entries to walk a path over");
  },
};

/** The usage fold of one file's catch-up, resumed at its saved state. */
export class UsageFold {
  private state: UsageTotalsState | null;

  /** `resumed`: the file already has indexed records (their state is read), else it is new. */
  constructor(
    private readonly db: Database,
    private readonly fileId: number,
    resumed: boolean,
  ) {
    this.state = resumed ? (restore(db, fileId) ?? null) : usageTotals.init();
  }

  /** Folds the next entry (after the header) of a file the shape fold still finds regular. */
  apply(entry: SessionEntry): void {
    if (this.state !== null) this.state = usageTotals.apply(this.state, entry, REGULAR_CONTEXT);
  }

  /** Forgets the state: the file is not regular, so its usage is never answered from it. */
  drop(): void {
    this.state = null;
  }

  /** Writes the state (or its absence) for the lines committed with it. */
  write(): void {
    const saved = this.state === null ? null : saveFoldState(usageTotals, this.state);
    const st = statementsOf(this.db);
    if (saved === null) st.drop.run(this.fileId, usageTotals.name);
    else st.put.run(this.fileId, saved.name, saved.version, saved.state);
  }
}

/**
 * The usage state saved for a file whose rows are its `entries` entries, or `undefined` when
 * there is none for exactly those rows under this rule version (the file's usage records are
 * read instead).
 */
export function savedUsage(
  db: Database,
  fileId: number,
  entries: number,
): UsageTotalsState | undefined {
  const state = restore(db, fileId);
  return state?.count === entries ? state : undefined;
}
