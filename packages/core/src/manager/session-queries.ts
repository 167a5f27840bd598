import { walkPath } from "../projections/context.js";
import { emptySummary, type PathSummary, summarizePath } from "../projections/context-cache.js";
import { labelOf, resolve } from "../projections/labels.js";
import { sessionNameOf } from "../projections/session-name.js";
import type { SessionEntry, SessionTreeNode } from "../schema/types.js";
import { childrenOf, getLogEntry, logEntries } from "../state/entry-log.js";
import type { SessionState } from "../state/session-state.js";
import { buildTree } from "../state/tree.js";
import { vecToArray } from "../state/vec.js";

/**
 * Read-only questions about one immutable `SessionState`. The manager answers through these;
 * other tools can ask the same questions of any snapshot they hold.
 */

/** The indexed entry with this id, or undefined. O(1). */
export function entryOf(state: SessionState, id: string): SessionEntry | undefined {
  return getLogEntry(state.log, id);
}

/** Path from the root to `entry` (cycle-safe). O(path). */
export function pathTo(state: SessionState, entry: SessionEntry): SessionEntry[] {
  return walkPath(entry, (id) => getLogEntry(state.log, id), state.log.length);
}

/** Snapshots whose leaf summary has been computed off the tip; weak so states can be freed. */
const leafMemo = new WeakMap<SessionState, PathSummary>();

/**
 * The context summary of the state's leaf: the fold's cached tip summary when the leaf is the
 * tip (O(1) amortised while appending at the leaf), otherwise computed once per snapshot.
 */
export function leafSummary(state: SessionState): PathSummary {
  const leafId = state.leafId;
  if (leafId === null) return emptySummary();
  const cache = state.context;
  if (cache.tip !== undefined && cache.tip.id === leafId) {
    cache.summary ??= summarizePath(pathTo(state, cache.tip));
    return cache.summary;
  }
  let summary = leafMemo.get(state);
  if (!summary) {
    const leaf = getLogEntry(state.log, leafId);
    summary = leaf ? summarizePath(pathTo(state, leaf)) : emptySummary();
    leafMemo.set(state, summary);
  }
  return summary;
}

/** `getBranch(fromId?)` (SPEC §7.6): root → start; `[]` when start is falsy or unknown. */
export function branchOf(state: SessionState, fromId?: string | null): SessionEntry[] {
  const start = fromId ?? state.leafId;
  if (!start) return [];
  if (start === state.leafId) return vecToArray(leafSummary(state).path);
  const entry = getLogEntry(state.log, start);
  return entry ? pathTo(state, entry) : [];
}

/** Children in file order (SPEC §7.7). O(children). */
export function childrenOfId(state: SessionState, parentId: string): SessionEntry[] {
  return childrenOf(state.log, parentId);
}

/** The tree with labels (SPEC §7.8). */
export function treeOf(state: SessionState): SessionTreeNode[] {
  return buildTree(state.log, state.labels);
}

/** Current label of an entry. */
export function labelOfId(state: SessionState, id: string): string | undefined {
  return labelOf(state.labels, id)?.label;
}

/** The resolved label map in insertion order (for createBranchedSession). */
export function labelMapOf(state: SessionState): ReturnType<typeof resolve> {
  return resolve(state.labels);
}

/** The display name (SPEC §7.11). */
export function nameOf(state: SessionState): string | undefined {
  return sessionNameOf(state.name);
}

/** All entries in file order, as a new array. */
export function entriesOf(state: SessionState): SessionEntry[] {
  return logEntries(state.log);
}
