import type { LabelEntry, SessionEntry } from "../schema/types.js";
import { defineProjection } from "../state/projection.js";

/** A resolved label and the timestamp of the label entry that set it. */
export interface ResolvedLabel {
  readonly label: string;
  readonly timestamp: string;
}

/** One label change, in file order. `label` is undefined when the change clears it. */
interface LabelChange {
  readonly targetId: string;
  readonly label: string | undefined;
  readonly timestamp: string;
}

/** Shared, append-only store; `current` is the resolved map after every change in `history`. */
interface LabelStore {
  readonly history: LabelChange[];
  readonly current: Map<string, ResolvedLabel>;
}

/**
 * Labels resolved over the whole file in file order (SPEC §7.10). A snapshot reads the newest
 * map in O(1); an older snapshot replays its prefix of the history, which only happens when
 * someone inspects history that has moved on.
 */
export interface LabelIndex {
  readonly store: LabelStore;
  readonly count: number;
}

/**
 * A truthy label sets and anything falsy (missing, undefined, "", null) clears (SPEC §7.10,
 * as the reference's truthiness test). A truthy non-string from a foreign writer is kept as
 * it is rather than taken for a clear.
 */
function changeOf(entry: LabelEntry): LabelChange {
  const raw: unknown = entry.label;
  const label = raw ? (raw as string) : undefined;
  return { targetId: entry.targetId, label, timestamp: entry.timestamp };
}

function applyChange(map: Map<string, ResolvedLabel>, change: LabelChange): void {
  if (change.label === undefined) map.delete(change.targetId);
  else map.set(change.targetId, { label: change.label, timestamp: change.timestamp });
}

/** Label index projection: folds `label` entries; other entries leave it unchanged. */
export const labelsProjection = defineProjection<LabelIndex>({
  name: "labels",
  init: () => ({ store: { history: [], current: new Map() }, count: 0 }),
  apply(state, entry: SessionEntry) {
    if (entry.type !== "label" || typeof (entry as LabelEntry).targetId !== "string") return state;
    const change = changeOf(entry as LabelEntry);
    let store = state.store;
    if (store.history.length !== state.count) {
      // Appending to an older snapshot: copy its prefix so newer snapshots stay unchanged.
      store = { history: store.history.slice(0, state.count), current: resolve(state) };
    }
    store.history.push(change);
    applyChange(store.current, change);
    return { store, count: state.count + 1 };
  },
});

/**
 * The resolved label map of a snapshot, in the insertion order a JavaScript `Map` gives when
 * replaying the changes (a cleared label that is set again moves to the end). Returns a new
 * map; createBranchedSession recreates labels in this order (SPEC §9).
 */
export function resolve(index: LabelIndex): Map<string, ResolvedLabel> {
  if (index.count === index.store.history.length) return new Map(index.store.current);
  const map = new Map<string, ResolvedLabel>();
  for (let i = 0; i < index.count; i++) applyChange(map, index.store.history[i] as LabelChange);
  return map;
}

/** The current label of `id` in this snapshot, or undefined. */
export function labelOf(index: LabelIndex, id: string): ResolvedLabel | undefined {
  if (index.count === index.store.history.length) return index.store.current.get(id);
  for (let i = index.count - 1; i >= 0; i--) {
    const change = index.store.history[i] as LabelChange;
    if (change.targetId === id) {
      return change.label === undefined
        ? undefined
        : { label: change.label, timestamp: change.timestamp };
    }
  }
  return undefined;
}
