/**
 * A v1 copy against a copy pi already migrated. A v1 file has no ids; pi 1.6.0 gives its
 * entries random ids when it opens the file and rewrites it, so the same entries carry
 * different ids on a machine where pi migrated the file and on one where it is still v1 (ours
 * are drawn from a stream seeded by the session id). Left as they are, the merge would hold the
 * migrated part twice, once under each set of ids. But the ids we minted are known to nobody
 * (no file, no running pi holds them), so they are ours to choose: each minted entry that the
 * other copy holds at the same place in the tree — the same content, under the entry its parent
 * was matched with — becomes the other copy's entry, and every reference to it follows. It
 * takes the other's references too: they can differ only where the two migrations did (a v1
 * compaction that keeps a later entry: pi's migration drops the reference, ours keeps it), and
 * the other copy's version is the one pi already wrote and showed.
 */

import type { JsonRecord } from "../format/parse.js";
import { referenceFieldsOf, renameReferences } from "../schema/entry-references.js";
import { identityText, type ReferenceFields } from "./id-collisions.js";
import type { CopyLine, SessionCopy } from "./session-copy.js";

/** Where an entry sits and what it holds, references apart: `parentId` and identity text. */
const placeKey = (parentId: unknown, record: JsonRecord, fields: ReferenceFields) =>
  `${typeof parentId === "string" ? parentId : ""}\0${identityText(record, fields)}`;

/**
 * Gives the entries of `copy` whose ids our migration minted the ids `other` has for the same
 * entries, in place (records and `changed` flags); returns how many took another id. Does
 * nothing unless `copy` has minted ids and `other` has none (two v1 copies mint the same ids
 * for the same lines already).
 */
export function alignMintedIds(
  copy: SessionCopy,
  other: SessionCopy,
  fields: ReferenceFields = referenceFieldsOf,
): number {
  const minted = copy.lines.filter((l) => l.minted && l.record);
  if (minted.length === 0 || other.lines.some((l) => l.minted)) return 0;
  // The other copy's entries by place; equal places (pi's lookup keeps the last) go to the
  // smallest id, so the choice does not depend on line order.
  const byPlace = new Map<string, JsonRecord>();
  for (const line of other.lines) {
    if (line.kind !== "entry" || !line.record) continue;
    const key = placeKey(line.record.parentId, line.record, fields);
    const known = byPlace.get(key);
    if (known === undefined || (line.record.id as string) < (known.id as string)) {
      byPlace.set(key, line.record);
    }
  }
  const taken = new Set<string>();
  for (const l of copy.lines) if (l.record && !l.minted) taken.add(l.record.id as string);
  const ids = new Map<string, string>();
  const matched = new Map<CopyLine, JsonRecord>();
  // Minted entries come in file order, parents first (a v1 file is one chain).
  for (const line of minted) {
    const record = line.record as JsonRecord;
    const parent = record.parentId;
    const mappedParent = typeof parent === "string" ? (ids.get(parent) ?? parent) : parent;
    const match = byPlace.get(placeKey(mappedParent, record, fields));
    if (match === undefined || taken.has(match.id as string)) continue;
    taken.add(match.id as string);
    ids.set(record.id as string, match.id as string);
    matched.set(line, match);
  }
  if (ids.size === 0) return 0;
  for (const line of copy.lines) {
    if (line.kind !== "entry" || !line.record) continue;
    const record = matched.get(line) ?? renameReferences(line.record, (id) => ids.get(id), fields);
    if (record !== line.record) {
      line.record = record;
      line.changed = true;
    }
  }
  return ids.size;
}
