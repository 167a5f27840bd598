import {
  advanceContext,
  type ContextCache,
  contextProjection,
} from "../projections/context-cache.js";
import type { FoldContext, Projection } from "../projections/define-projection.js";
import { type LabelIndex, labelsProjection } from "../projections/labels.js";
import { type SessionNameState, sessionNameProjection } from "../projections/session-name.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import { appendToLog, type EntryLog, emptyLog, getLogEntry, logFromEntries } from "./entry-log.js";

/** The entry log (with id and children indexes) as a projection like any other. */
export const entryLogProjection: Projection<EntryLog> = {
  name: "entries",
  init: emptyLog,
  apply: (log, entry) => appendToLog(log, entry),
};

/** A projection registered next to the built-ins, with its current state. */
export interface ProjectionSlot {
  readonly projection: Projection<unknown>;
  readonly state: unknown;
}

/**
 * An immutable snapshot of one session: the header, the entry log and every projection of
 * it, plus the leaf pointer (the one piece of state that is not a fold: `branch` moves it).
 * Every transition returns a new state; old states stay valid and unchanged.
 */
export interface SessionState {
  readonly header: SessionHeader | null;
  readonly log: EntryLog;
  readonly labels: LabelIndex;
  readonly name: SessionNameState;
  readonly context: ContextCache;
  /** Additional projections (plugins), folded by the same runner as the built-ins. */
  readonly extra: readonly ProjectionSlot[];
  readonly leafId: string | null;
}

/** A session with a header and no entries. */
export function initialState(
  header: SessionHeader | null,
  extra: readonly Projection<unknown>[] = [],
): SessionState {
  return {
    header,
    log: emptyLog(),
    labels: labelsProjection.init(),
    name: sessionNameProjection.init(),
    context: contextProjection.init(),
    extra: extra.map((projection) => ({ projection, state: projection.init() })),
    leafId: null,
  };
}

/**
 * The fold context of the entry at `log.length`: lookups over `log`. The arrow is returned
 * from here rather than written inline in a context literal, where it would get an inferred
 * name, which transpilers that keep names (tsx, esbuild `keepNames`) set with a
 * `defineProperty` on every call.
 */
function foldContext(log: EntryLog): FoldContext {
  return { position: log.length, getEntry: lookupIn(log) };
}

function lookupIn(log: EntryLog): (id: string) => SessionEntry | undefined {
  return (id) => getLogEntry(log, id);
}

/**
 * Folds one entry: every projection sees it with lookups over the entries before it, then
 * the leaf moves to it (SPEC §5.1, §6.5 step 7). O(1) for the built-ins. This runs on every
 * append, so the built-ins are called the way {@link replayOwned} calls them: the label and
 * name folds only for their own entry types (they return any other unchanged), the context
 * fold told whether the id is new by the log append that just counted it (what its
 * `getEntry(entry.id) === undefined` would say), and a fold context is built only when some
 * projection reads it.
 */
export function foldEntry(state: SessionState, entry: SessionEntry): SessionState {
  const before = state.log;
  const log = appendToLog(before, entry);
  const type = entry.type;
  const extra = state.extra;
  const ctx =
    type === "label" || type === "session_info" || extra.length > 0
      ? foldContext(before)
      : undefined;
  return {
    header: state.header,
    log,
    labels:
      type === "label"
        ? labelsProjection.apply(state.labels, entry, ctx as FoldContext)
        : state.labels,
    name:
      type === "session_info"
        ? sessionNameProjection.apply(state.name, entry, ctx as FoldContext)
        : state.name,
    context: advanceContext(state.context, entry, log.distinct !== before.distinct),
    extra:
      extra.length === 0
        ? extra
        : extra.map((slot) => ({
            projection: slot.projection,
            state: slot.projection.apply(slot.state, entry, ctx as FoldContext),
          })),
    leafId: entry.id,
  };
}

/** Folds entries in file order; the leaf ends at the last one. */
export function foldEntries(state: SessionState, entries: readonly SessionEntry[]): SessionState {
  let s = state;
  for (const entry of entries) s = foldEntry(s, entry);
  return s;
}

/** The state with the leaf moved (no entry is written). */
export function withLeaf(state: SessionState, leafId: string | null): SessionState {
  return leafId === state.leafId ? state : { ...state, leafId };
}

/** The current state of a registered extra projection, by name. */
export function extraProjectionState(state: SessionState, name: string): unknown {
  return state.extra.find((slot) => slot.projection.name === name)?.state;
}

/**
 * Replays a whole log at once (a load). Equal in every answer to `foldEntries` from an
 * initial state — a law the tests check — but builds the indexes in one pass and leaves
 * the context summary to be computed on first use, so opening costs O(n) with a small
 * constant and no per-entry state objects.
 */
export function replayState(
  header: SessionHeader | null,
  entries: readonly SessionEntry[],
  extra: readonly Projection<unknown>[] = [],
): SessionState {
  // A copy: the log's store grows in place on later appends, never into the caller's array.
  return replayOwned(header, entries.slice(), extra);
}

/**
 * {@link replayState} for an entry array the caller hands over (a load that just built it);
 * the array becomes the log's store and must not be touched afterwards.
 */
export function replayOwned(
  header: SessionHeader | null,
  entries: SessionEntry[],
  extra: readonly Projection<unknown>[] = [],
): SessionState {
  let state = initialState(header, extra);
  if (entries.length === 0) return state;
  const log = logFromEntries(entries);
  let labels = state.labels;
  let name = state.name;
  let slots = state.extra;
  const needsCtx = slots.length > 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as SessionEntry;
    const type = entry.type;
    if (type === "label" || type === "session_info" || needsCtx) {
      const before: EntryLog = { store: log.store, length: i, distinct: 0 };
      const ctx = foldContext(before);
      if (type === "label") labels = labelsProjection.apply(labels, entry, ctx);
      else if (type === "session_info") name = sessionNameProjection.apply(name, entry, ctx);
      if (needsCtx) {
        slots = slots.map((s) => ({
          projection: s.projection,
          state: s.projection.apply(s.state, entry, ctx),
        }));
      }
    }
  }
  const tip = entries[entries.length - 1] as SessionEntry;
  state = {
    header,
    log,
    labels,
    name,
    context: { tip, summary: undefined },
    extra: slots,
    leafId: tip.id,
  };
  return state;
}
