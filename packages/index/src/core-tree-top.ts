/**
 * Core's tree over the top of a session's tree (`tree-top.ts`): the child order and the
 * labels are core's (`treeOf`, its label projection), over only the entries the top holds (each
 * its real record, read when more than its tree fields is read), with the labels folded over
 * every label record of the file.
 */

import {
  type LabelsRole,
  replayProjection,
  replayState,
  type SessionEntry,
  type SessionHeader,
  type SessionTreeNode,
  treeOf,
} from "@pi-sessions/core";
import { type LabelIndex, labelsProjection } from "@pi-sessions/core/internal";
import type { TopRows } from "./tree-top.js";

/** A tree's top as core builds it, with the index's counts of what it leaves out. */
export interface TreeTop {
  /**
   * Core's tree (`treeOf`) over the entries at most `depth + 1` levels below the roots (a
   * root is level 1), so each entry `depth` levels down has its children; labels resolved by
   * core over every label record of the file. Its entries are core's entries over the rows.
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
 * Core's own label projection over a tree built from only some of the file's entries: its state
 * is core's fold of every label record of the file (a label may name any entry, and its record
 * may lie deeper than the top), and the label records among the top's entries are not folded a
 * second time (a later record of the file may have cleared what an earlier one set).
 */
function labelsOverFile(labelRecords: readonly SessionEntry[]): LabelsRole<LabelIndex> {
  const folded = replayProjection(labelsProjection, labelRecords);
  return { ...labelsProjection, init: () => folded, apply: (state) => state };
}

/** Core's tree over `top`; `recordAt` reads the record at a position of its entries. */
export function coreTreeTop(
  header: SessionHeader,
  top: TopRows,
  recordAt: (position: number) => SessionEntry,
): TreeTop {
  const labels = labelsOverFile(top.labels);
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
