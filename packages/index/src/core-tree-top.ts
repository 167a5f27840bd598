/**
 * Core's tree over the top of a session's tree (`tree-top.ts`): the child order and the
 * labels are core's (`treeOf`, `labelsOfRecords`), over only the entries the top holds, with
 * the labels resolved over every label record of the file.
 */

import {
  type LabelsRole,
  labelsOfRecords,
  type ResolvedLabel,
  replayState,
  type SessionEntry,
  type SessionHeader,
  type SessionTreeNode,
  treeOf,
} from "@pi-sessions/core";
import type { TopRows } from "./tree-top.js";

/** A tree's top as core builds it, with the index's counts of what it leaves out. */
export interface TreeTop {
  /**
   * Core's tree (`treeOf`) over the entries at most `depth + 1` levels below the roots (a
   * root is level 1), so each entry `depth` levels down has its children; labels resolved by
   * core over every label record of the file. Its entries are stand-ins (see `recordOf`).
   */
  readonly roots: SessionTreeNode[];
  /** How many entries lie below a node of `roots` in the whole tree. */
  below(node: SessionTreeNode): number;
  /** The ids in `roots` on the path root → `leafId` (none for `null` or an unknown id). */
  pathIds(leafId: string | null): Set<string>;
  /** The record of an entry of `roots`, read from the file. */
  recordOf(entry: SessionEntry): SessionEntry;
}

/**
 * Core's label role over labels already resolved (by core's rule, over every label record of
 * the file), for a tree built over only some of the file's entries.
 */
function resolvedLabels(
  labels: Map<string, ResolvedLabel>,
): LabelsRole<Map<string, ResolvedLabel>> {
  return {
    name: "labels",
    types: ["label"],
    init: () => labels,
    apply: (state) => state,
    labelOf: (state, id) => state.get(id),
    labels: (state) => new Map(state),
  };
}

/** Core's tree over `top`; `recordAt` reads the record at a position of its entries. */
export function coreTreeTop(
  header: SessionHeader,
  top: TopRows,
  recordAt: (position: number) => SessionEntry,
): TreeTop {
  const labels = resolvedLabels(labelsOfRecords(top.labels));
  const state = replayState(header, top.entries, [labels]);
  const positions = new Map(top.entries.map((e, i) => [e, i]));
  const at = (entry: SessionEntry) => {
    const position = positions.get(entry);
    if (position === undefined) throw new RangeError(`entry ${entry.id} is not in the top`);
    return position;
  };
  return {
    roots: treeOf(state),
    below: (node) => top.below(at(node.entry)),
    pathIds: (leafId) => top.pathIds(leafId),
    recordOf: (entry) => recordAt(at(entry)),
  };
}
