import type { SessionEntry, SessionHeader } from "../schema/types.js";
import {
  appendLineToLog,
  appendToLog,
  childrenOf,
  type EntryHead,
  type EntryLog,
  getLogEntry,
  handleAt,
  logEntries,
} from "./entry-log.js";
import { foldSlots, type Projection, type ProjectionSlot, replaySlots } from "./projection.js";

/**
 * An immutable snapshot of one session: header, entry log, every projection's state (built-ins
 * first, then plugins'), and the leaf, the one part that is not a fold (`branch` moves it).
 */
export interface SessionState {
  readonly header: SessionHeader | null;
  readonly log: EntryLog;
  readonly slots: readonly ProjectionSlot[];
  readonly leafId: string | null;
}

/** Folds one entry into every projection, then moves the leaf to it (SPEC §5.1, §6.5 step 7). */
export function foldEntry(state: SessionState, entry: SessionEntry): SessionState {
  const before = state.log;
  return {
    header: state.header,
    log: appendToLog(before, entry),
    slots: foldSlots(state.slots, before, entry, () => entry),
    leafId: entry.id,
  };
}

/**
 * Folds the entry whose JSON text is `line` (tree fields in `head`), moving the leaf to it: the
 * entry is decoded only when something reads its body (projections read it through a handle).
 */
export function foldLine(state: SessionState, head: EntryHead, line: string): SessionState {
  const before = state.log;
  const log = appendLineToLog(before, head, line);
  return {
    header: state.header,
    log,
    slots: foldSlots(state.slots, before, head, () => handleAt(log, before.length)),
    leafId: head.id,
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

/** The state of the projection registered under `name`, or undefined. O(projections). */
export function projectionState(state: SessionState, name: string): unknown {
  return state.slots.find((slot) => slot.projection.name === name)?.state;
}

/** The state with a projection added (replayed over the log), or undefined if the name is taken. */
export function withProjection(
  state: SessionState,
  projection: Projection<unknown>,
): SessionState | undefined {
  if (state.slots.some((s) => s.projection.name === projection.name)) return undefined;
  const [slot] = replaySlots([projection], state.log);
  return { ...state, slots: [...state.slots, slot as ProjectionSlot] };
}

/** The state without the projection registered under `name` (the same state if none). */
export function withoutProjection(state: SessionState, name: string): SessionState {
  const slots = state.slots.filter((s) => s.projection.name !== name);
  return slots.length === state.slots.length ? state : { ...state, slots };
}

/** The indexed entry with this id. O(1). */
export function entryOf(state: SessionState, id: string): SessionEntry | undefined {
  return getLogEntry(state.log, id);
}

/** Children in file order (SPEC §7.7). O(children). */
export function childrenOfId(state: SessionState, parentId: string): SessionEntry[] {
  return childrenOf(state.log, parentId);
}

/** All entries in file order, as a new array. */
export function entriesOf(state: SessionState): SessionEntry[] {
  return logEntries(state.log);
}
