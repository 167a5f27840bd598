/**
 * Colliding ids between two copies (SPEC §14 M2): the same id on entries whose content differs.
 * Ids are 8 hex characters drawn at random on each machine, so two machines appending to one
 * session can mint the same id. Both entries are kept: one keeps the id, every other version
 * gets a fresh one, and every field that refers to it (per `ENTRY_REFERENCES`) follows.
 *
 * The choice does not depend on which copy is passed first, so merges are commutative: the
 * version whose canonical JSON sorts first keeps the id. The fresh id is derived from the
 * renamed version's own content (a hash), so merging again, in any order or grouping, mints the
 * same id — and an entry that an earlier merge already renamed is recognised, not renamed twice.
 */

import { createHash } from "node:crypto";
import type { JsonRecord } from "../format/parse.js";
import { referenceFieldsOf, renameReferences } from "../schema/entry-references.js";
import { canonicalJson } from "./canonical-json.js";
import type { SessionCopy } from "./session-copy.js";

/** One entry that got a fresh id in a merge. */
export interface RenamedEntry {
  /** The id both copies used. */
  readonly from: string;
  /** The fresh id of this version. */
  readonly to: string;
  /** The copy (or copies) this version came from. */
  readonly copy: "a" | "b" | "both";
}

/** Which versions keep their id: the canonical first (symmetric), or all of copy `a`'s. */
export type CollisionRule = "symmetric" | "keep-a";

/**
 * An entry's content without its id and reference fields: what a rename leaves unchanged, so
 * it also orders entries of equal time the same way before and after any rename.
 */
export function identityText(record: JsonRecord): string {
  const rest: JsonRecord = { ...record };
  delete rest.id;
  for (const field of referenceFieldsOf(record.type)) delete rest[field];
  return canonicalJson(rest);
}

/** The canonical texts of each id's versions in one copy, and the version each id resolves to. */
function versionsOf(copy: SessionCopy) {
  const byId = new Map<string, Set<string>>();
  const lookup = new Map<string, string>();
  const records = new Map<string, JsonRecord>();
  for (const line of copy.lines) {
    if (line.kind !== "entry" || !line.record) continue;
    const id = line.record.id as string;
    const text = canonicalJson(line.record);
    const set = byId.get(id) ?? new Set<string>();
    byId.set(id, set.add(text));
    records.set(text, line.record);
    // Lookups go to the last entry with an id (W15), so references do too.
    lookup.set(id, text);
  }
  return { byId, lookup, records };
}

/** Whether every element of `small` is in `big`. */
function within(small: ReadonlySet<string>, big: ReadonlySet<string>): boolean {
  for (const x of small) if (!big.has(x)) return false;
  return true;
}

/**
 * The id a renamed version gets: a hash of the id it had and of its content apart from ids and
 * references (which earlier renames may have changed, so the same entry gets the same fresh id
 * whichever merge renames it), redrawn while it names another entry.
 */
function freshId(
  from: string,
  record: JsonRecord,
  owners: (id: string) => readonly JsonRecord[],
  assigned: ReadonlySet<string>,
): string {
  const identity = identityText(record);
  for (let n = 0; ; n++) {
    const id = createHash("sha256")
      .update(`pi-sessions merge\0${from}\0${identity}\0${n}`)
      .digest("hex")
      .slice(0, 8);
    if (assigned.has(id)) continue;
    // Taken only by this very entry, renamed to the same id by an earlier merge: use it.
    if (owners(id).every((r) => identityText(r) === identity)) return id;
  }
}

/** Ids both copies use with version sets neither of which holds the other's. */
function collidingIds(va: Versions, vb: Versions): string[] {
  const ids = [...va.byId.keys()].filter((id) => vb.byId.has(id)).sort();
  return ids.filter((id) => {
    const sa = va.byId.get(id) as Set<string>;
    const sb = vb.byId.get(id) as Set<string>;
    return !within(sa, sb) && !within(sb, sa);
  });
}

type Versions = ReturnType<typeof versionsOf>;

/**
 * Renames the colliding versions in both copies, in place (their records and `changed` flags),
 * and returns what was renamed. References in each copy follow the version that copy's lookup
 * of the id gives. Works in rounds: versions that differ only in references may be one entry
 * whose reference an earlier rename changed in one copy (a copy merged before), so only
 * versions that differ in content are renamed while any are left; then the references are
 * followed, and what still collides is renamed too.
 */
export function renameCollisions(a: SessionCopy, b: SessionCopy, rule: CollisionRule) {
  const renamed: RenamedEntry[] = [];
  const assigned = new Set<string>();
  for (;;) {
    const va = versionsOf(a);
    const vb = versionsOf(b);
    const colliding = collidingIds(va, vb);
    if (colliding.length === 0) return renamed;
    const records = (id: string) =>
      [...(va.byId.get(id) ?? []), ...(vb.byId.get(id) ?? [])].map(
        (text) => (va.records.get(text) ?? vb.records.get(text)) as JsonRecord,
      );
    const distinct = colliding.filter((id) => new Set(records(id).map(identityText)).size > 1);
    const owners = (id: string) => records(id);
    const renames = new Map<string, string>(); // canonical text of a version → its fresh id
    for (const id of distinct.length > 0 ? distinct : colliding) {
      const sa = va.byId.get(id) as Set<string>;
      const sb = vb.byId.get(id) as Set<string>;
      const all = [...new Set([...sa, ...sb])].sort();
      const keep = rule === "keep-a" ? sa : new Set(all.slice(0, 1));
      for (const text of all) {
        if (keep.has(text)) continue;
        const record = (va.records.get(text) ?? vb.records.get(text)) as JsonRecord;
        const to = freshId(id, record, owners, assigned);
        assigned.add(to);
        renames.set(text, to);
        renamed.push({ from: id, to, copy: sa.has(text) ? (sb.has(text) ? "both" : "a") : "b" });
      }
    }
    applyRenames(a, va.lookup, renames);
    applyRenames(b, vb.lookup, renames);
  }
}

/** Gives each renamed version its id and points the copy's references at its lookup's version. */
function applyRenames(
  copy: SessionCopy,
  lookup: ReadonlyMap<string, string>,
  renames: ReadonlyMap<string, string>,
): void {
  const target = (id: string): string | undefined => {
    const text = lookup.get(id);
    return text === undefined ? undefined : renames.get(text);
  };
  for (const line of copy.lines) {
    if (line.kind !== "entry" || !line.record) continue;
    const own = renames.get(canonicalJson(line.record));
    let record = renameReferences(line.record, target);
    if (own !== undefined) record = { ...record, id: own };
    if (record !== line.record) {
      line.record = record;
      line.changed = true;
    }
  }
}
