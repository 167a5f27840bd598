/**
 * Splits a session's entry tree into linear runs ("segments") for a transcript: the path to
 * the current leaf first, then every side branch as its own run starting where it forks off.
 * A flat list of runs instead of nested markup keeps the page readable however bushy the tree
 * is, and keeps the walk iterative (no recursion depth to overflow on long or deep sessions).
 */
import { recordsTreeSource, type SessionEntry, treeIndex } from "@pi-sessions/core";

/** One linear run of entries, each the parent of the next. */
export interface Segment {
  /** 1-based number shown to the reader ("Branch 2"). */
  readonly number: number;
  /** Id of the entry this run hangs off; null for a root run. */
  readonly forkFrom: string | null;
  /** The entries in order, parent before child. */
  readonly entries: readonly SessionEntry[];
  /** True for the run that ends at (or passes through) the current leaf. */
  readonly current: boolean;
  /**
   * True for entries no root reaches (a parent cycle in a damaged file): listed in file
   * order so nothing is silently left out.
   */
  readonly unreachable: boolean;
}

/** The segments of a session and where each side run forks off. */
export interface SegmentedTree {
  readonly segments: readonly Segment[];
  /** Entry id → the segments that fork off it (other than the run it is in). */
  readonly forks: ReadonlyMap<string, readonly Segment[]>;
}

/**
 * Segments `entries` (file order). `path` is the root→leaf path the first segment follows
 * (empty when the leaf is null); side runs follow each entry's newest child (the last in file
 * order, the one appended last), the way a user most likely left that branch. The links are
 * core's tree index: entries whose parent is missing count as roots, and a reused id is one
 * node, its shadowed copies listed with the unreachable entries (SPEC W15). Pure; O(n).
 */
export function segmentTree(
  entries: readonly SessionEntry[],
  path: readonly SessionEntry[],
): SegmentedTree {
  const tree = treeIndex(recordsTreeSource(entries));
  const segments: Segment[] = [];
  const forks = new Map<string, Segment[]>();
  const placed = new Uint8Array(entries.length);
  /** Runs waiting to be walked: (fork point, first position). */
  const queue: [string | null, number][] = [];
  const at = (pos: number) => entries[pos] as SessionEntry;

  const addSegment = (forkFrom: string | null, run: number[], current: boolean) => {
    const segment: Segment = {
      number: segments.length + 1,
      forkFrom,
      entries: run.map(at),
      current,
      unreachable: false,
    };
    segments.push(segment);
    if (forkFrom !== null) {
      const list = forks.get(forkFrom);
      if (list) list.push(segment);
      else forks.set(forkFrom, [segment]);
    }
    // Every child not continuing this run starts a run of its own, in file order.
    run.forEach((pos, i) => {
      const next = run[i + 1];
      for (const child of tree.linkedChildren(pos)) {
        if (child !== next && !placed[child]) queue.push([at(pos).id, child]);
      }
    });
  };

  const walk = (first: number): number[] => {
    const run: number[] = [];
    for (let pos: number | undefined = first; pos !== undefined && !placed[pos]; ) {
      placed[pos] = 1;
      run.push(pos);
      const kids = tree.linkedChildren(pos);
      pos = kids[kids.length - 1];
    }
    return run;
  };

  const main = path.map((e) => tree.positionOf(e.id)).filter((pos) => pos >= 0);
  for (const pos of main) placed[pos] = 1;
  if (main.length > 0) {
    // A path that starts below a missing parent, or inside a parent cycle, hangs off nothing.
    const parent = tree.parentOf(main[0] as number);
    const forkFrom = parent >= 0 && !placed[parent] ? at(parent).id : null;
    addSegment(forkFrom, main, true);
  }
  for (const root of tree.roots())
    if (tree.parentOf(root) < 0 && !placed[root]) queue.push([null, root]);
  // Side runs are walked breadth-first: a branch's own forks come after its siblings.
  for (let i = 0; i < queue.length; i++) {
    const [forkFrom, first] = queue[i] as [string | null, number];
    if (placed[first]) continue;
    addSegment(forkFrom, walk(first), false);
  }
  const rest = entries.filter((_e, pos) => !placed[pos]);
  if (rest.length > 0) {
    segments.push({
      number: segments.length + 1,
      forkFrom: null,
      entries: rest,
      current: false,
      unreachable: true,
    });
  }
  return { segments, forks };
}
