/**
 * A read-only index over a session's records for rendering: ids (last occurrence wins, SPEC
 * W15), labels (SPEC §7.10), children and paths (§7.6), built defensively so that damaged
 * records never make rendering throw.
 */
import type { FileEntry, SessionEntry } from "@pi-sessions/core";
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
  /** Position (in `records`) of the indexed record of each id. */
  readonly positions: ReadonlyMap<string, number>;
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

/** Resolves labels in file order over the whole file: truthy sets, falsy clears. */
function resolveLabels(records: readonly unknown[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const r of records) {
    if (get(r, "type") !== "label") continue;
    const target = get(r, "targetId");
    if (typeof target !== "string") continue;
    const label = get(r, "label");
    if (label) labels.set(target, safeString(label));
    else labels.delete(target);
  }
  return labels;
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
  const positions = new Map<string, number>();
  records.forEach((r, i) => {
    const id = get(r, "id");
    if (typeof id === "string") positions.set(id, i);
  });
  const labels = fromSession ? undefined : resolveLabels(records);
  return {
    records,
    positions,
    leafId: fromSession ? source.getLeafId() : lastId(records),
    getEntry: (id) => {
      const pos = positions.get(id);
      return pos === undefined ? undefined : (records[pos] as SessionEntry);
    },
    getLabel: fromSession ? (id) => source.getLabel(id) : (id) => labels?.get(id),
  };
}

/** The parent id of a record when it names an indexed entry other than itself. */
export function parentOf(index: SessionIndex, record: unknown): string | undefined {
  const parent = get(record, "parentId");
  if (typeof parent !== "string" || parent === get(record, "id")) return undefined;
  return index.positions.has(parent) ? parent : undefined;
}

/**
 * Records root → `leafId` following parent links; stops at a missing parent or a repeated id
 * (SPEC §7.6, W14). Empty for an unknown or null leaf.
 */
export function pathOf(index: SessionIndex, leafId: string | null): unknown[] {
  const path: unknown[] = [];
  const seen = new Set<string>();
  let id: string | undefined = leafId ?? undefined;
  while (id !== undefined && !seen.has(id)) {
    const pos = index.positions.get(id);
    if (pos === undefined) break;
    seen.add(id);
    const record = index.records[pos];
    path.push(record);
    const parent = get(record, "parentId");
    id = typeof parent === "string" ? parent : undefined;
  }
  return path.reverse();
}

/** Children of every indexed id, in file order (only indexed records take part). */
export function childrenIndex(index: SessionIndex): Map<string, number[]> {
  const children = new Map<string, number[]>();
  for (const [, pos] of index.positions) {
    const parent = parentOf(index, index.records[pos]);
    if (parent === undefined) continue;
    const list = children.get(parent);
    if (list) list.push(pos);
    else children.set(parent, [pos]);
  }
  for (const list of children.values()) list.sort((a, b) => a - b);
  return children;
}
