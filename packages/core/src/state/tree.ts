import type { SessionEntry, SessionTreeNode } from "../schema/types.js";
import { type EntryLog, entryAt, getLogEntry, positionOf } from "./entry-log.js";

/**
 * What the tree index reads from a sequence of records, by position in file order. The
 * manager's entry log and raw parsed records (which may lack ids or carry any JSON value in
 * any field) both fit without being copied.
 */
export interface TreeSource {
  /** Number of records. */
  readonly length: number;
  /** The record's `id`; only a string id takes part in the tree. */
  idAt(position: number): unknown;
  /** The record's `parentId`; only a string names a parent. */
  parentIdAt(position: number): unknown;
  /** The record's `timestamp`, the children sort key of SPEC §7.8. */
  timestampAt(position: number): unknown;
  /**
   * Position of the last record with this id, or -1. Optional: a source with its own id
   * index (the entry log) gives it; otherwise the tree index builds one.
   */
  positionOf?(id: string): number;
}

/**
 * The entry tree over a {@link TreeSource} (SPEC §7.6–§7.8): which records are indexed, their
 * parent links, the parent cycles and where they are cut, children in timestamp order and
 * the path walk. Positions are file positions in the source. Immutable once built.
 */
export interface TreeIndex {
  /** Number of records in the source, indexed or not. */
  readonly length: number;
  /** Positions of the indexed records (a string id's last occurrence, SPEC W15), ascending. */
  readonly indexed: readonly number[];
  /** The parent cycles (SPEC W14), each as its member positions in walk order. */
  readonly cycles: readonly (readonly number[])[];
  /** Position of the indexed record with this id, or -1. */
  positionOf(id: string): number;
  /**
   * Position of the record's parent as the file links it: -1 for a root (null or missing
   * parent, a self-parent) and for a record that is not indexed.
   */
  parentOf(position: number): number;
  /** The parent in the tree: {@link parentOf}, except -1 where a cycle is cut. */
  treeParentOf(position: number): number;
  /** Roots in file order, cut cycle members included (SPEC §7.8). */
  roots(): readonly number[];
  /** Children in the tree: timestamp ascending, stable, unparseable timestamps last. */
  children(position: number): readonly number[];
  /**
   * Indexed records whose file link ({@link parentOf}) is `position`, in file order: the
   * tree's children plus a cycle member cut off below it (SPEC §7.7's order).
   */
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

/** The last position of each string id, for sources without an id index. O(n). */
function lastPositions(source: TreeSource): (id: string) => number {
  const latest = new Map<string, number>();
  for (let pos = 0; pos < source.length; pos++) {
    const id = source.idAt(pos);
    if (typeof id === "string") latest.set(id, pos);
  }
  return (id) => latest.get(id) ?? -1;
}

/**
 * The parent cycles (SPEC W14), each as its member positions in walk order. Walks up from
 * every position not yet known to reach a root; a walk that meets itself has found a cycle.
 * Each position is visited a constant number of times, so this is O(n).
 */
function parentCycles(indexed: readonly number[], parent: Int32Array): number[][] {
  const cycles: number[][] = [];
  // 0 = unknown, 1 = on the current walk, 2 = done.
  const state = new Uint8Array(parent.length);
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
 * Path from the root to `start` following `parentOf` until it gives undefined; stops when a
 * key repeats, so cycles and self-parents terminate (SPEC W14). Iterative. `limit` (the size
 * of the graph) lets the common acyclic walk skip the visited set: a longer walk must loop.
 */
function walkUp<T>(
  start: T,
  parentOf: (node: T) => T | undefined,
  keyOf: (node: T) => unknown,
  limit: number,
): T[] {
  const reversed: T[] = [start];
  for (let at = parentOf(start); at !== undefined; at = parentOf(at)) {
    if (reversed.length > limit) {
      // Longer than the graph: there is a cycle. Walk again, stopping at the first repeat.
      const seen = new Set<unknown>([keyOf(start)]);
      reversed.length = 1;
      for (let p = parentOf(start); p !== undefined && !seen.has(keyOf(p)); p = parentOf(p)) {
        seen.add(keyOf(p));
        reversed.push(p);
      }
      break;
    }
    reversed.push(at);
  }
  return reversed.reverse();
}

/**
 * Path from the root to `leaf`, following `parentId` through `getEntry` until a link is null
 * or missing. Stops when an id repeats, so cycles and self-parents terminate (SPEC W14).
 * `limit` (the number of entries) lets the common acyclic walk skip the visited set.
 */
export function walkPath(
  leaf: SessionEntry,
  getEntry: (id: string) => SessionEntry | undefined,
  limit: number,
): SessionEntry[] {
  const parentOf = (e: SessionEntry) =>
    typeof e.parentId === "string" ? getEntry(e.parentId) : undefined;
  return walkUp(leaf, parentOf, (e) => e.id, limit);
}

/** Builds the {@link TreeIndex} of a source. O(n); children are sorted on first use. */
export function treeIndex(source: TreeSource): TreeIndex {
  const n = source.length;
  const find = source.positionOf ? source.positionOf.bind(source) : lastPositions(source);
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
    for (const cycle of cycles) {
      let first = cycle[0] as number;
      for (const c of cycle) if (c < first) first = c;
      treeParent[first] = -1;
    }
  }
  /** Child lists in file order along `links`, and the records without a parent there. */
  const group = (links: Int32Array) => {
    const lists = new Map<number, number[]>();
    const top: number[] = [];
    for (const pos of indexed) {
      const p = links[pos] as number;
      if (p < 0) top.push(pos);
      else {
        const list = lists.get(p);
        if (list) list.push(pos);
        else lists.set(p, [pos]);
      }
    }
    return { lists, top };
  };
  let kids: Map<number, number[]> | undefined;
  let linked: Map<number, number[]> | undefined;
  let roots: number[] | undefined;
  const build = (): Map<number, number[]> => {
    const { lists, top } = group(treeParent);
    roots = top;
    for (const list of lists.values()) {
      if (list.length < 2) continue;
      const key = new Map(list.map((pos) => [pos, timeKey(source.timestampAt(pos))]));
      // Equal keys (unparseable ones too) keep file order: the sort is stable by position.
      list.sort((a, b) => (key.get(a) as number) - (key.get(b) as number) || a - b);
    }
    kids = lists;
    return lists;
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
    roots: () => {
      if (!roots) build();
      return roots as number[];
    },
    children: (pos) => (kids ?? build()).get(pos) ?? [],
    linkedChildren: (pos) => {
      linked ??= group(parent).lists;
      return linked.get(pos) ?? [];
    },
    pathTo: (pos) => walkUp(pos, up, (p) => p, n),
  };
}

/** The manager's entry log as a {@link TreeSource}; reads the log in place. */
export function logTreeSource(log: EntryLog): TreeSource {
  return {
    length: log.length,
    idAt: (pos) => entryAt(log, pos).id,
    parentIdAt: (pos) => entryAt(log, pos).parentId,
    timestampAt: (pos) => entryAt(log, pos).timestamp,
    positionOf: (id) => positionOf(log, id),
  };
}

/** A field of a record that may be anything; never throws (a throwing getter reads as absent). */
function field(record: unknown, key: string): unknown {
  if (typeof record !== "object" || record === null) return undefined;
  try {
    return (record as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * Raw records in file order as a {@link TreeSource}: anything may be missing or of the wrong
 * type; a record without a string id is simply not indexed.
 */
export function recordsTreeSource(records: readonly unknown[]): TreeSource {
  return {
    length: records.length,
    idAt: (pos) => field(records[pos], "id"),
    parentIdAt: (pos) => field(records[pos], "parentId"),
    timestampAt: (pos) => field(records[pos], "timestamp"),
  };
}

/**
 * The entry tree (SPEC §7.8) as `getTree()` returns it: new nodes over the stored entries,
 * roots in file order, children by timestamp, each indexed id exactly once (W14, W15), with
 * the resolved labels. Iterative; O(n log n) for the sorts.
 */
export function buildTree(
  log: EntryLog,
  labelOf: (id: string) => { readonly label: string; readonly timestamp: string } | undefined,
): SessionTreeNode[] {
  const index = treeIndex(logTreeSource(log));
  const nodes: (SessionTreeNode | undefined)[] = new Array(log.length);
  const node = (pos: number): SessionTreeNode => {
    let made = nodes[pos];
    if (!made) {
      const entry = entryAt(log, pos);
      made = { entry, children: [] };
      const label = labelOf(entry.id);
      if (label) {
        made.label = label.label;
        made.labelTimestamp = label.timestamp;
      }
      nodes[pos] = made;
    }
    return made;
  };
  for (const pos of index.indexed) {
    const made = node(pos);
    for (const child of index.children(pos)) made.children.push(node(child));
  }
  return index.roots().map(node);
}

/** The path root → `entry` among the entries of `log` (cycle-safe). O(path). */
export function pathInLog(log: EntryLog, entry: SessionEntry): SessionEntry[] {
  return walkPath(entry, (id) => getLogEntry(log, id), log.length);
}
