/**
 * The plugins' usage-totals projection, folded while a file is indexed and its state kept per
 * file (`file_usage`), so that a session's usage is answered without reading every usage line
 * again: the whole-tree totals and the diagnostics are the state's, and only a branch the
 * state has not cached needs the records on the leaf's path. The fold is the plugins' own
 * (`usageTotals`): the index only saves and restores its state. Entries are folded only while
 * core's shape fold finds the file regular, and only a regular file's queries are answered, so
 * a state left beside a file a damaged line made irregular is never read.
 */

import type { FoldContext, SessionEntry } from "@pi-sessions/core";
import { type UsageDiagnostic, type UsageTotalsState, usageTotals } from "@pi-sessions/plugins";
import type { Database, Statement } from "better-sqlite3";

/** The JSON kept in `file_usage.state`: the projection's state without its caches of queries. */
interface SavedUsage {
  readonly tree: UsageTotalsState["tree"];
  readonly count: number;
  readonly reusedIds: boolean;
  readonly leaf: UsageTotalsState["leaf"] | null;
  readonly diagnostics: readonly UsageDiagnostic[];
}

/** The statements of one connection's usage states. */
interface UsageStatements {
  readonly get: Statement<[number], { state: string }>;
  readonly put: Statement<[number, string], void>;
  readonly drop: Statement<[number], void>;
}

const prepared = new WeakMap<Database, UsageStatements>();

function statementsOf(db: Database): UsageStatements {
  let st = prepared.get(db);
  if (st === undefined) {
    st = {
      get: db.prepare("SELECT state FROM file_usage WHERE file_id = ?"),
      put: db.prepare(
        `INSERT INTO file_usage (file_id, state) VALUES (?, ?)
         ON CONFLICT (file_id) DO UPDATE SET state = excluded.state`,
      ),
      drop: db.prepare("DELETE FROM file_usage WHERE file_id = ?"),
    };
    prepared.set(db, st);
  }
  return st;
}

/** The state saved as JSON, or `null` when JSON cannot hold it exactly (a sum overflowed). */
function save(state: UsageTotalsState): string | null {
  let exact = true;
  const saved: SavedUsage = {
    tree: state.tree,
    count: state.count,
    reusedIds: state.reusedIds,
    leaf: state.leaf ?? null,
    diagnostics: state.diagnosticLog.slice(0, state.diagnosticCount),
  };
  const json = JSON.stringify(saved, (_key, value: unknown) => {
    // JSON writes ±Infinity and NaN as null: such a state is not kept rather than kept wrong.
    if (typeof value === "number" && !Number.isFinite(value)) exact = false;
    return value;
  });
  return exact ? json : null;
}

/** The projection's state as {@link save} wrote it, with empty query caches. */
function restore(json: string): UsageTotalsState {
  const saved = JSON.parse(json) as SavedUsage;
  return {
    tree: saved.tree,
    count: saved.count,
    reusedIds: saved.reusedIds,
    leaf: saved.leaf ?? undefined,
    memo: { folded: saved.count, last: undefined },
    diagnosticLog: [...saved.diagnostics],
    diagnosticCount: saved.diagnostics.length,
  };
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

  /** `resumed`: the file already has indexed lines (their state is read), else it is new. */
  constructor(
    private readonly db: Database,
    private readonly fileId: number,
    resumed: boolean,
  ) {
    const row = resumed ? statementsOf(db).get.get(fileId) : undefined;
    this.state = resumed ? (row === undefined ? null : restore(row.state)) : usageTotals.init();
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
    const json = this.state === null ? null : save(this.state);
    const st = statementsOf(this.db);
    if (json === null) st.drop.run(this.fileId);
    else st.put.run(this.fileId, json);
  }
}

/**
 * The usage state saved for a file whose rows are its `entries` entries, or `undefined` when
 * there is none for exactly those rows (the file is read for its usage records instead).
 */
export function savedUsage(
  db: Database,
  fileId: number,
  entries: number,
): UsageTotalsState | undefined {
  const row = statementsOf(db).get.get(fileId);
  if (row === undefined) return undefined;
  const state = restore(row.state);
  return state.count === entries ? state : undefined;
}
