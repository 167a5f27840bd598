import type { SessionEntry } from "../schema/types.js";
import { type EntryLog, entryAt, handleAt, idAt, parentIdAt, positionOf } from "./entry-log.js";

/**
 * What the tree index reads by file position: the entry log and raw parsed records (which may
 * lack ids or hold any JSON value in any field) both fit without a copy. Only a string id or
 * parent id takes part in the tree; the timestamp is the children sort key of SPEC §7.8.
 */
export interface TreeSource {
  readonly length: number;
  idAt(position: number): unknown;
  parentIdAt(position: number): unknown;
  timestampAt(position: number): unknown;
  /** Position of the last record with this id, or -1; without it the index builds one. */
  positionOf?(id: string): number;
}

/** The immutable entry tree over a {@link TreeSource} (SPEC §7.6–§7.8), by file position. */
export interface TreeIndex {
  /** Number of records in the source, indexed or not. */
  readonly length: number;
  /** Positions of the indexed records (a string id's last occurrence, SPEC W15), ascending. */
  readonly indexed: readonly number[];
  /**
   * The parent cycles (SPEC W14: cycles must not hang a walk), each as its member positions in walk
   * order.
   */
  readonly cycles: readonly (readonly number[])[];
  /** Position of the indexed record with this id, or -1. */
  positionOf(id: string): number;
  /** The parent as the file links it; -1 for a root, a self-parent or an unindexed record. */
  parentOf(position: number): number;
  /** The parent in the tree: {@link parentOf}, except -1 where a cycle is cut. */
  treeParentOf(position: number): number;
  /** Roots in file order, cut cycle members included (SPEC §7.8). */
  roots(): readonly number[];
  /** Children in the tree: timestamp ascending, stable, unparseable timestamps last. */
  children(position: number): readonly number[];
  /** Records whose {@link parentOf} is `position`, in file order (SPEC §7.7), cut links too. */
  linkedChildren(position: number): readonly number[];
  /** Positions root → `position` along the file's links, stopping at a repeat (SPEC §7.6). */
  pathTo(position: number): number[];
}

/** Timestamp sort key: valid dates ascending, unparseable ones after them (SPEC §7.8). */
function timeKey(value: unknown): number {
  let t = Number.NaN;
  try {
    t = Date.parse(typeof value === "string" ? value : String(value));
  } catch {
    // A value without a string form (a symbol, a throwing toString) has no time.
  }
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/**
 * The parent cycles (SPEC W14: cycles must not hang a walk) in walk order, each position walked up
 * once: O(n).
 */
function parentCycles(indexed: readonly number[], parent: Int32Array): number[][] {
  const cycles: number[][] = [];
  const state = new Uint8Array(parent.length); // 0 unknown, 1 on the current walk, 2 done
  for (const start of indexed) {
    if (state[start] === 2) continue;
    const walk: number[] = [];
    let p = start;
    while (p >= 0 && state[p] === 0) {
      state[p] = 1;
      walk.push(p);
      p = parent[p] as number;
    }
    if (p >= 0 && state[p] === 1) cycles.push(walk.slice(walk.indexOf(p)));
    for (const w of walk) state[w] = 2;
  }
  return cycles;
}

/**
 * Path root → `start` along `parentOf`, stopping at a repeated key so cycles end (SPEC W14).
 * `limit` (the graph's size) lets the common acyclic walk skip the visited set: a longer walk
 * must loop, and is redone with the set (a negative `limit`).
 */
function walkUp<T>(
  start: T,
  parentOf: (node: T) => T | undefined,
  keyOf: (node: T) => unknown,
  limit: number,
): T[] {
  const path: T[] = [start];
  const seen = limit < 0 ? new Set([keyOf(start)]) : undefined;
  for (let at = parentOf(start); at !== undefined; at = parentOf(at)) {
    if (seen) {
      if (seen.has(keyOf(at))) break;
      seen.add(keyOf(at));
    } else if (path.length > limit) return walkUp(start, parentOf, keyOf, -1);
    path.push(at);
  }
  return path.reverse();
}

/** Path root → `leaf` along `parentId` through `getEntry` (cycle-safe); `limit` as in walkUp. */
export function walkPath(
  leaf: SessionEntry,
  getEntry: (id: string) => SessionEntry | undefined,
  limit: number,
): SessionEntry[] {
  const parentOf = (e: SessionEntry) =>
    typeof e.parentId === "string" ? getEntry(e.parentId) : undefined;
  return walkUp(leaf, parentOf, (e) => e.id, limit);
}

/** Builds the {@link TreeIndex} of a source in O(n); children are sorted on first use. */
export function treeIndex(source: TreeSource): TreeIndex {
  const n = source.length;
  let find = source.positionOf?.bind(source);
  if (!find) {
    const latest = new Map<string, number>();
    for (let pos = 0; pos < n; pos++) {
      const id = source.idAt(pos);
      if (typeof id === "string") latest.set(id, pos);
    }
    find = (id) => latest.get(id) ?? -1;
  }
  const parent = new Int32Array(n).fill(-1);
  const indexed: number[] = [];
  for (let pos = 0; pos < n; pos++) {
    const id = source.idAt(pos);
    if (typeof id !== "string" || find(id) !== pos) continue;
    indexed.push(pos);
    const parentId = source.parentIdAt(pos);
    const p = typeof parentId === "string" ? find(parentId) : -1;
    parent[pos] = p === pos ? -1 : p;
  }
  const cycles = parentCycles(indexed, parent);
  let treeParent = parent;
  if (cycles.length > 0) {
    // Cut each cycle at its member that comes first in file order; it becomes a root.
    treeParent = parent.slice();
    for (const cycle of cycles) treeParent[cycle.reduce((a, b) => Math.min(a, b))] = -1;
  }
  // Child lists in file order along `links`; key -1 holds the records without a parent there.
  const group = (links: Int32Array) => {
    const lists = new Map<number, number[]>([[-1, []]]);
    for (const pos of indexed) {
      const list = lists.get(links[pos] as number);
      if (list) list.push(pos);
      else lists.set(links[pos] as number, [pos]);
    }
    return lists;
  };
  let sorted: Map<number, number[]> | undefined;
  let linked: Map<number, number[]> | undefined;
  const tree = () => {
    if (sorted) return sorted;
    sorted = group(treeParent);
    for (const [p, list] of sorted) {
      if (p < 0 || list.length < 2) continue;
      const key = new Map(list.map((pos) => [pos, timeKey(source.timestampAt(pos))]));
      // Equal keys (unparseable ones too) keep file order: the sort is stable by position.
      list.sort((a, b) => (key.get(a) as number) - (key.get(b) as number) || a - b);
    }
    return sorted;
  };
  const up = (pos: number) => ((parent[pos] as number) < 0 ? undefined : (parent[pos] as number));
  return {
    length: n,
    indexed,
    cycles,
    positionOf: (id) => {
      const pos = find(id);
      return pos >= 0 && pos < n ? pos : -1;
    },
    parentOf: (pos) => parent[pos] ?? -1,
    treeParentOf: (pos) => treeParent[pos] ?? -1,
    roots: () => tree().get(-1) as number[],
    children: (pos) => (pos < 0 ? [] : (tree().get(pos) ?? [])),
    linkedChildren: (pos) => {
      linked ??= group(parent);
      return pos < 0 ? [] : (linked.get(pos) ?? []);
    },
    pathTo: (pos) => walkUp(pos, up, (p) => p, n),
  };
}

/**
 * The entry log as a {@link TreeSource}, read in place: ids and parents from its columns; a
 * timestamp (asked only to order siblings) decodes its entry.
 */
export function logTreeSource(log: EntryLog): TreeSource {
  return {
    length: log.length,
    idAt: (pos) => idAt(log, pos),
    parentIdAt: (pos) => parentIdAt(log, pos),
    timestampAt: (pos) => entryAt(log, pos).timestamp,
    positionOf: (id) => positionOf(log, id),
  };
}

/** A field of a record that may be anything; a throwing getter reads as absent. */
function field(record: unknown, key: string): unknown {
  if (typeof record !== "object" || record === null) return undefined;
  try {
    return (record as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Raw records as a {@link TreeSource}: a record without a string id is not indexed. */
export function recordsTreeSource(records: readonly unknown[]): TreeSource {
  return {
    length: records.length,
    idAt: (pos) => field(records[pos], "id"),
    parentIdAt: (pos) => field(records[pos], "parentId"),
    timestampAt: (pos) => field(records[pos], "timestamp"),
  };
}

/**
 * Positions root → `pos` along the `parentId` links in `log` (each to the latest entry of that
 * id), stopping at a repeat (SPEC W14). O(path), reading only the columns.
 */
export function pathPositions(log: EntryLog, pos: number): number[] {
  const { ids, parents } = log.store;
  // Without duplicate ids a parent named by the previous entry's id is that entry: most of a
  // path, read with one comparison (the load shares that string) instead of a lookup.
  const unique = log.distinct === log.length;
  const up = (p: number) => {
    const parent = parents[p];
    if (unique && p > 0 && parent === ids[p - 1]) return p - 1;
    if (typeof parent !== "string") return undefined;
    const q = positionOf(log, parent);
    return q < 0 ? undefined : q;
  };
  return walkUp(pos, up, (p) => p, log.length);
}

/** The path root → the indexed entry with this id in `log` (cycle-safe; `[]` if none). O(path). */
export function pathInLog(log: EntryLog, id: string): SessionEntry[] {
  const pos = positionOf(log, id);
  return pos < 0 ? [] : pathPositions(log, pos).map((p) => handleAt(log, p));
}
