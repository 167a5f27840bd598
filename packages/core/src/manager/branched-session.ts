import type { SessionEnv } from "../env/env.js";
import { generateEntryId } from "../env/ids.js";
import type { ResolvedLabel } from "../projections/labels.js";
import type { CompactionEntry, SessionEntry } from "../schema/types.js";

/**
 * The entries of a session extracted from one path (SPEC §9 steps 2 and 4): label entries
 * dropped, the rest re-linked into one chain (a compaction whose `firstKeptEntryId` named a
 * dropped label names the kept entry after it), then the kept entries' labels recreated at the
 * end in the label map's order, timestamps kept. Pure: copies keep unknown fields and key order.
 */
export function branchedEntries(
  path: readonly SessionEntry[],
  labels: ReadonlyMap<string, ResolvedLabel>,
  env: SessionEnv,
): SessionEntry[] {
  const out: SessionEntry[] = [];
  /** Dropped label id → the id of the next kept entry on the path. */
  const replacement = new Map<string, string>();
  const pendingLabels: string[] = [];
  const lastId = () => (out.length === 0 ? null : (out[out.length - 1] as SessionEntry).id);
  for (const entry of path) {
    if (entry.type === "label") {
      pendingLabels.push(entry.id);
      continue;
    }
    for (const labelId of pendingLabels) replacement.set(labelId, entry.id);
    pendingLabels.length = 0;
    out.push({ ...entry, parentId: lastId() } as SessionEntry);
  }
  for (let i = 0; i < out.length; i++) {
    const e = out[i] as CompactionEntry;
    const next = e.type === "compaction" ? replacement.get(e.firstKeptEntryId) : undefined;
    if (next !== undefined && e.firstKeptEntryId !== e.id)
      out[i] = { ...e, firstKeptEntryId: next };
  }
  const keptIds = new Set(out.map((e) => e.id));
  const taken = new Set(keptIds);
  for (const [targetId, { timestamp, label }] of labels) {
    if (!keptIds.has(targetId)) continue;
    const id = generateEntryId(env, (candidate) => taken.has(candidate));
    taken.add(id);
    out.push({ type: "label", id, parentId: lastId(), timestamp, targetId, label });
  }
  return out;
}
