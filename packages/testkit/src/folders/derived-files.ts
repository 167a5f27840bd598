/**
 * The records of files made from other files, written from SPEC §9 and §10.1 (and checked
 * against `SessionManager.forkFrom` / `createBranchedSession` by the testkit's own tests):
 *
 * - a fork holds every record of its source, in file order (exact duplicates included);
 * - a branched session holds the path root → leaf without its label entries, re-linked, then
 *   the resolved labels of the kept entries recreated with fresh ids;
 * - a copy under another cwd folder holds the same records.
 *
 * A copied record keeps its origin, so an oracle knows it is one record seen twice.
 */
import { labelsOfRecords, type SessionEntry, walkPath } from "@pi-sessions/core";
import { entryIdFor } from "../arbitraries/common.js";
import type { DraftRecord } from "./hostile-values.js";

/** A fork's records: every record of the source, in file order, each keeping its origin. */
export function forkRecords(source: readonly DraftRecord[]): DraftRecord[] {
  return source.map((r) => ({ entry: clone(r.entry), origin: r.origin }));
}

/** The result of {@link branchedRecords}. */
export interface BranchedRecords {
  readonly records: DraftRecord[];
  /** Whether the records hold a user or assistant message (else pi never writes the file). */
  readonly written: boolean;
}

function clone(entry: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
}

/**
 * A branched session's records (SPEC §9) for `leafId` over `source` (file order). The path is
 * looked up with the last record of an id winning, as a loaded session does. Recreated label
 * entries are new records (their origin is `<newPath>#label<n>`); ids come from `salt`, checked
 * against the kept ids.
 */
export function branchedRecords(
  source: readonly DraftRecord[],
  leafId: string,
  newPath: string,
  salt: number,
): BranchedRecords {
  const byId = new Map<string, DraftRecord>();
  for (const r of source) if (typeof r.entry.id === "string") byId.set(r.entry.id, r);
  const leaf = byId.get(leafId);
  if (!leaf) return { records: [], written: false };
  const asEntry = (r: DraftRecord) => r.entry as unknown as SessionEntry;
  const recordOf = new Map(source.map((r) => [asEntry(r), r] as const));
  const pathEntries = walkPath(
    asEntry(leaf),
    (id) => {
      const r = byId.get(id);
      return r ? asEntry(r) : undefined;
    },
    source.length,
  );
  const path = pathEntries.map((e) => recordOf.get(e) as DraftRecord);
  const kept: DraftRecord[] = [];
  // A compaction that kept a dropped label keeps the entry that followed it on the path.
  const redirect = new Map<string, string>();
  const pendingLabels: string[] = [];
  for (const r of path) {
    if (r.entry.type === "label") {
      pendingLabels.push(r.entry.id as string);
      continue;
    }
    for (const l of pendingLabels.splice(0)) redirect.set(l, r.entry.id as string);
    const previous = kept[kept.length - 1];
    const entry: Record<string, unknown> = {
      ...clone(r.entry),
      parentId: previous ? previous.entry.id : null,
    };
    const firstKept = entry.firstKeptEntryId;
    if (
      entry.type === "compaction" &&
      typeof firstKept === "string" &&
      firstKept !== entry.id &&
      redirect.has(firstKept)
    ) {
      entry.firstKeptEntryId = redirect.get(firstKept);
    }
    kept.push({ entry, origin: r.origin });
  }
  const keptIds = new Set(kept.map((r) => r.entry.id as string));
  const used = new Set(keptIds);
  const labels: DraftRecord[] = [];
  let n = 0;
  for (const [targetId, resolved] of labelsOfRecords(source.map((r) => r.entry))) {
    if (!keptIds.has(targetId)) continue;
    let id = entryIdFor(n, salt);
    while (used.has(id)) id = entryIdFor(++n, salt);
    used.add(id);
    const parent = labels[labels.length - 1] ?? kept[kept.length - 1];
    labels.push({
      entry: {
        type: "label",
        id,
        parentId: parent ? parent.entry.id : null,
        timestamp: resolved.timestamp,
        targetId,
        label: resolved.label,
      },
      origin: `${newPath}#label${labels.length}`,
    });
    n++;
  }
  const written = kept.some((r) => {
    const m = r.entry.message as { role?: unknown } | undefined;
    return r.entry.type === "message" && (m?.role === "user" || m?.role === "assistant");
  });
  return { records: [...kept, ...labels], written };
}
