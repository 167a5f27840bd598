import type { SessionEnv } from "../env/env.js";
import { generateEntryId } from "../env/ids.js";
import type { ResolvedLabel } from "../projections/labels.js";
import type { CompactionEntry, LabelEntry, SessionEntry } from "../schema/types.js";

/**
 * The entries of a session extracted from one path (SPEC §9 steps 2 and 4): label entries
 * dropped and the rest re-linked into one chain; a compaction whose `firstKeptEntryId` named
 * a dropped label now names the kept entry that followed it; then the labels that target kept
 * entries are recreated at the end, in the label map's order, with their original timestamps.
 * Pure: the input entries are not changed (copies keep unknown fields and key order).
 */
export function branchedEntries(
  path: readonly SessionEntry[],
  labels: ReadonlyMap<string, ResolvedLabel>,
  env: SessionEnv,
): SessionEntry[] {
  const dropped = new Set<string>();
  const kept: SessionEntry[] = [];
  /** Dropped label id → the id of the next kept entry on the path. */
  const replacement = new Map<string, string>();
  const pendingLabels: string[] = [];
  for (const entry of path) {
    if (entry.type === "label") {
      dropped.add(entry.id);
      pendingLabels.push(entry.id);
      continue;
    }
    for (const labelId of pendingLabels) replacement.set(labelId, entry.id);
    pendingLabels.length = 0;
    const parentId = kept.length === 0 ? null : (kept[kept.length - 1] as SessionEntry).id;
    kept.push({ ...entry, parentId } as SessionEntry);
  }
  for (let i = 0; i < kept.length; i++) {
    const e = kept[i] as SessionEntry;
    if (e.type !== "compaction") continue;
    const target = (e as CompactionEntry).firstKeptEntryId;
    if (target === e.id || !dropped.has(target)) continue;
    const next = replacement.get(target);
    if (next !== undefined) kept[i] = { ...e, firstKeptEntryId: next } as SessionEntry;
  }
  const keptIds = new Set(kept.map((e) => e.id));
  const taken = new Set(keptIds);
  const out = kept.slice();
  let parentId = out.length === 0 ? null : (out[out.length - 1] as SessionEntry).id;
  for (const [targetId, resolved] of labels) {
    if (!keptIds.has(targetId)) continue;
    const id = generateEntryId(env, (candidate) => taken.has(candidate));
    taken.add(id);
    const label: LabelEntry = {
      type: "label",
      id,
      parentId,
      timestamp: resolved.timestamp,
      targetId,
      label: resolved.label,
    };
    out.push(label);
    parentId = id;
  }
  return out;
}
