import type { SessionEntry } from "../schema/types.js";

/**
 * Read access to the log while a projection folds one entry: the entries already folded
 * (not the one being applied) and the entry's position in file order.
 */
export interface FoldContext {
  /** Zero-based position of the entry being applied among all entries of the log. */
  readonly position: number;
  /** The indexed entry with this id among the entries folded so far (last one wins). */
  getEntry(id: string): SessionEntry | undefined;
}

/**
 * A projection: a pure fold of the entry log into some state `S` (DESIGN rule 5).
 *
 * `apply` must not change anything a previous state can observe: a state returned earlier
 * stays valid and unchanged after later applications (DESIGN I9). Built-in projections meet
 * that with append-only shared stores read through a version; small plugin states can simply
 * return new objects (or use immer).
 */
export interface Projection<S> {
  /** Unique name; plugins address their state by it. */
  readonly name: string;
  /** The state of an empty log. */
  init(): S;
  /** The state after one more entry. */
  apply(state: S, entry: SessionEntry, ctx: FoldContext): S;
}

/**
 * Declares a projection. An identity function that fixes the state type, so a projection
 * literal is checked once where it is written rather than where it is used.
 */
export function defineProjection<S>(projection: Projection<S>): Projection<S> {
  return projection;
}

/**
 * Folds a whole log with one projection (the replay path of the I6 law). Lookups see only
 * the entries before the one being applied, exactly as during incremental folding.
 */
export function replayProjection<S>(
  projection: Projection<S>,
  entries: readonly SessionEntry[],
): S {
  const byId = new Map<string, SessionEntry>();
  const getEntry = (id: string): SessionEntry | undefined => byId.get(id);
  let state = projection.init();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as SessionEntry;
    state = projection.apply(state, entry, { position: i, getEntry });
    if (typeof entry.id === "string") byId.set(entry.id, entry);
  }
  return state;
}
