/**
 * A read-only index over a session's records for rendering: core's tree index (ids with the
 * last occurrence winning, SPEC W15; children, cycle cut and paths, §7.6–§7.8) and core's
 * label rule (§7.10), both of which read damaged records without throwing.
 */
import {
  type FileEntry,
  labelsOfRecords,
  recordsTreeSource,
  type SessionEntry,
  type TreeIndex,
  treeIndex,
} from "@pi-sessions/core";
import { get, safeString } from "./text.js";

/** The read side of a session manager that the renderers use. */
export interface RenderableSession {
  getEntries(): SessionEntry[];
  getLeafId(): string | null;
  getLabel(id: string): string | undefined;
}

/** Records in file order with lookups. */
export interface SessionIndex {
  /** Every non-header record, in file order. */
  readonly records: readonly unknown[];
  /** The tree over `records`: positions are indexes into `records`. */
  readonly tree: TreeIndex;
  readonly leafId: string | null;
  getEntry(id: string): SessionEntry | undefined;
  getLabel(id: string): string | undefined;
}

function isSession(source: unknown): source is RenderableSession {
  return (
    typeof source === "object" &&
    source !== null &&
    !Array.isArray(source) &&
    typeof (source as RenderableSession).getEntries === "function"
  );
}

function lastId(records: readonly unknown[]): string | null {
  for (let i = records.length - 1; i >= 0; i--) {
    const id = get(records[i], "id");
    if (typeof id === "string") return id;
  }
  return null;
}

/**
 * The index of a session manager or of records in file order (a leading header is skipped).
 * For records the leaf is the last entry, as after loading a file.
 */
export function indexSession(source: readonly FileEntry[] | RenderableSession): SessionIndex {
  const fromSession = isSession(source);
  const all: readonly unknown[] = fromSession ? source.getEntries() : source;
  const records = all.filter((r) => get(r, "type") !== "session");
  const tree = treeIndex(recordsTreeSource(records));
  const labels = fromSession ? undefined : labelsOfRecords(records);
  const labelOf = (id: string) => {
    const label = labels?.get(id)?.label;
    return label === undefined ? undefined : safeString(label);
  };
  return {
    records,
    tree,
    leafId: fromSession ? source.getLeafId() : lastId(records),
    getEntry: (id) => {
      const pos = tree.positionOf(id);
      return pos < 0 ? undefined : (records[pos] as SessionEntry);
    },
    getLabel: fromSession ? (id) => source.getLabel(id) : labelOf,
  };
}
