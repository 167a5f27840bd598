/**
 * Splits a session's entry tree into linear runs ("segments") for a transcript: the path to
 * the current leaf first, then every side branch as its own run starting where it forks off.
 * A flat list of runs instead of nested markup keeps the page readable however bushy the tree
 * is, and keeps the walk iterative (no recursion depth to overflow on long or deep sessions).
 */
import type { SessionEntry } from "@pi-sessions/core";

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
 * (empty when the leaf is null); side runs follow each entry's newest child, the way a user
 * most likely left that branch. Entries whose parent is missing count as roots. Pure; O(n).
 */
export function segmentTree(
  entries: readonly SessionEntry[],
  path: readonly SessionEntry[],
): SegmentedTree {
  const ids = new Set(entries.map((e) => e.id));
  const children = new Map<string, SessionEntry[]>();
  const roots: SessionEntry[] = [];
  for (const entry of entries) {
    const parent = entry.parentId;
    if (parent === null || parent === undefined || !ids.has(parent) || parent === entry.id) {
      roots.push(entry);
      continue;
    }
    const list = children.get(parent);
    if (list) list.push(entry);
    else children.set(parent, [entry]);
  }

  const segments: Segment[] = [];
  const forks = new Map<string, Segment[]>();
  const placed = new Set<SessionEntry>();
  /** Runs waiting to be walked: (fork point, first entry). */
  const queue: [string | null, SessionEntry][] = [];

  const addSegment = (forkFrom: string | null, run: SessionEntry[], current: boolean) => {
    const segment: Segment = {
      number: segments.length + 1,
      forkFrom,
      entries: run,
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
    run.forEach((entry, i) => {
      const next = run[i + 1];
      for (const child of children.get(entry.id) ?? []) {
        if (child !== next && !placed.has(child)) queue.push([entry.id, child]);
      }
    });
  };

  const walk = (first: SessionEntry): SessionEntry[] => {
    const run: SessionEntry[] = [];
    let at: SessionEntry | undefined = first;
    while (at !== undefined && !placed.has(at)) {
      placed.add(at);
      run.push(at);
      const kids: SessionEntry[] | undefined = children.get(at.id);
      at = kids?.[kids.length - 1];
    }
    return run;
  };

  const main = path.slice();
  for (const e of main) placed.add(e);
  if (main.length > 0) {
    const first = main[0] as SessionEntry;
    // A path that starts below a missing parent, or inside a parent cycle, hangs off nothing.
    const parent = first.parentId;
    const forkFrom =
      parent !== null && ids.has(parent) && !main.some((e) => e.id === parent) ? parent : null;
    addSegment(forkFrom, main, true);
  }
  for (const root of roots) if (!placed.has(root)) queue.push([null, root]);
  // Side runs are walked breadth-first: a branch's own forks come after its siblings.
  for (let i = 0; i < queue.length; i++) {
    const [forkFrom, first] = queue[i] as [string | null, SessionEntry];
    if (placed.has(first)) continue;
    addSegment(forkFrom, walk(first), false);
  }
  const rest = entries.filter((e) => !placed.has(e));
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
