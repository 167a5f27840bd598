import {
  type PersistentVector,
  vecOwning,
  vecPush,
  vecToArray,
} from "../state/persistent-vector.js";
import type { Projection } from "../state/projection.js";

/** A resolved label and the timestamp of the label entry that set it. */
export interface ResolvedLabel {
  readonly label: string;
  readonly timestamp: string;
}

/** One label change; `label` undefined clears it. */
interface LabelChange {
  readonly targetId: string;
  readonly label: string | undefined;
  readonly timestamp: string;
}

/**
 * Labels resolved over the file in file order (SPEC §7.10). `current` is the resolved map
 * after every change in the shared `changes.items`: the newest snapshot reads it in O(1); an
 * older one replays its prefix of the changes (only when inspecting the past).
 */
export interface LabelIndex {
  readonly changes: PersistentVector<LabelChange>;
  readonly current: Map<string, ResolvedLabel>;
}

const isNewest = (index: LabelIndex) => index.changes.length === index.changes.items.length;

/** The label index role (`getLabel`, labels in `getTree`, labels kept by a branched session). */
export interface LabelsRole<S = unknown> extends Projection<S> {
  readonly name: "labels";
  labelOf(state: S, id: string): ResolvedLabel | undefined;
  /** Every current label, in the order a branched session recreates them (SPEC §9). */
  labels(state: S): Map<string, ResolvedLabel>;
}

/**
 * The change a `label` record with a string target makes (SPEC §7.10): a truthy label sets
 * (a truthy non-string from a foreign writer too), anything falsy clears, as the reference's
 * truthiness test does. Never throws, so raw records of a damaged file follow the same rule.
 */
function changeOf(record: unknown): LabelChange | undefined {
  if (typeof record !== "object" || record === null) return undefined;
  try {
    const r = record as Record<string, unknown>;
    if (r.type !== "label" || typeof r.targetId !== "string") return undefined;
    const label = r.label ? (r.label as string) : undefined;
    return { targetId: r.targetId, label, timestamp: r.timestamp as string };
  } catch {
    return undefined; // a throwing getter on a foreign object: no label record we can read
  }
}

function applyChange(map: Map<string, ResolvedLabel>, change: LabelChange | undefined): void {
  if (change === undefined) return;
  if (change.label === undefined) map.delete(change.targetId);
  else map.set(change.targetId, { label: change.label, timestamp: change.timestamp });
}

/** The built-in label index: folds `label` entries. */
export const labelsProjection: LabelsRole<LabelIndex> = {
  name: "labels",
  types: ["label"],
  init: () => ({ changes: vecOwning([]), current: new Map() }),
  apply(state, entry) {
    const change = changeOf(entry);
    if (change === undefined) return state;
    // On an older snapshot `vecPush` copies its prefix, and the map is rebuilt for that prefix.
    const current = isNewest(state) ? state.current : resolveLabels(state);
    applyChange(current, change);
    return { changes: vecPush(state.changes, change), current };
  },
  labelOf,
  labels: resolveLabels,
};

/**
 * The resolved label map of a snapshot (a new map), in the insertion order a JavaScript `Map`
 * gives when replaying the changes: a cleared label set again moves to the end (SPEC §9).
 */
export function resolveLabels(index: LabelIndex): Map<string, ResolvedLabel> {
  if (isNewest(index)) return new Map(index.current);
  const map = new Map<string, ResolvedLabel>();
  for (const change of vecToArray(index.changes)) applyChange(map, change);
  return map;
}

/**
 * The current label of `id` in this snapshot; an older one scans its changes back, allocating
 * nothing (`getTree` on a past snapshot asks once per node).
 */
export function labelOf(index: LabelIndex, id: string): ResolvedLabel | undefined {
  if (isNewest(index)) return index.current.get(id);
  const { items } = index.changes;
  for (let i = index.changes.length - 1; i >= 0; i--) {
    const c = items[i] as LabelChange;
    if (c.targetId !== id) continue;
    return c.label === undefined ? undefined : { label: c.label, timestamp: c.timestamp };
  }
  return undefined;
}

/** The labels of raw records (a damaged file's too) by the projection's rule and order. */
export function labelsOfRecords(records: Iterable<unknown>): Map<string, ResolvedLabel> {
  const map = new Map<string, ResolvedLabel>();
  for (const record of records) applyChange(map, changeOf(record));
  return map;
}
