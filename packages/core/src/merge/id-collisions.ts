/**
 * Colliding ids between two copies (SPEC §14 M2): the same id on entries whose content differs.
 * Ids are 8 hex characters drawn at random on each machine, so two machines appending to one
 * session can mint the same id. Both entries are kept: one keeps the id, every other version
 * gets a fresh one, and every field that refers to it (per `ENTRY_REFERENCES`) follows.
 *
 * The choice does not depend on which copy is passed first, nor on earlier renames, so merges
 * are commutative and associative: the version whose content apart from ids and references
 * sorts first keeps the id (then the whole canonical JSON decides). The fresh id is derived from the
 * renamed version's own content (a hash), so merging again, in any order or grouping, mints the
 * same id — and an entry that an earlier merge already renamed is recognised, not renamed twice.
 */

import { createHash } from "node:crypto";
import type { JsonRecord } from "../format/parse.js";
import { referenceFieldsOf, renameReferences } from "../schema/entry-references.js";
import { canonicalJson } from "./canonical-json.js";
import { type CopyLine, rawText, type SessionCopy } from "./session-copy.js";

/** One entry that got a fresh id in a merge. */
export interface RenamedEntry {
  /** The id both copies used. */
  readonly from: string;
  /** The fresh id of this version. */
  readonly to: string;
  /** The copy (or copies) this version came from. */
  readonly copy: "a" | "b" | "both";
}

/**
 * The fields of an entry of a type that name other entries, `parentId` included: core's
 * `referenceFieldsOf` for the built-in types, or an `entryTypeRegistry`'s (a plugin's too).
 */
export type ReferenceFields = (type: unknown) => readonly string[];

/** Which versions keep their id: the canonical first (symmetric), or all of copy `a`'s. */
export type CollisionRule = "symmetric" | "keep-a";

/**
 * An entry's content without its id and reference fields: what a rename leaves unchanged, so
 * it also orders entries of equal time the same way before and after any rename.
 */
export function identityText(
  record: JsonRecord,
  fields: ReferenceFields = referenceFieldsOf,
): string {
  const rest: JsonRecord = { ...record };
  delete rest.id;
  for (const field of fields(record.type)) delete rest[field];
  return canonicalJson(rest);
}

/** Each id's entry lines in one copy, in file order. */
function linesById(copy: SessionCopy): Map<string, CopyLine[]> {
  const byId = new Map<string, CopyLine[]>();
  for (const line of copy.lines) {
    if (line.kind !== "entry" || !line.record) continue;
    const id = line.record.id as string;
    const lines = byId.get(id);
    if (lines) lines.push(line);
    else byId.set(id, [line]);
  }
  return byId;
}

/** A line's text for a quick check: the bytes as read, or its record as written anew. */
function quickText(line: CopyLine): string {
  return line.changed ? JSON.stringify(line.record) : rawText(line);
}

/** The canonical texts of lines' records (the same JSON value gives the same text). */
function versions(lines: readonly CopyLine[] | undefined): Set<string> {
  return new Set((lines ?? []).map((l) => canonicalJson(l.record)));
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
  fields: ReferenceFields,
): string {
  const identity = identityText(record, fields);
  for (let n = 0; ; n++) {
    const id = createHash("sha256")
      .update(`pi-sessions merge\0${from}\0${identity}\0${n}`)
      .digest("hex")
      .slice(0, 8);
    if (assigned.has(id)) continue;
    // Taken only by this very entry, renamed to the same id by an earlier merge: use it.
    if (owners(id).every((r) => identityText(r, fields) === identity)) return id;
  }
}

/**
 * Ids both copies use with version sets neither of which holds the other's, with those sets.
 * Most ids are the same lines in both copies, told by their bytes; only the rest are compared
 * as JSON values (canonical texts cost far more than a byte compare).
 */
function collidingIds(la: Map<string, CopyLine[]>, lb: Map<string, CopyLine[]>) {
  const out = new Map<string, { sa: Set<string>; sb: Set<string> }>();
  for (const [id, linesA] of la) {
    const linesB = lb.get(id);
    if (!linesB) continue;
    const qa = new Set(linesA.map(quickText));
    const qb = new Set(linesB.map(quickText));
    if (within(qa, qb) || within(qb, qa)) continue;
    const sa = versions(linesA);
    const sb = versions(linesB);
    if (!within(sa, sb) && !within(sb, sa)) out.set(id, { sa, sb });
  }
  return new Map([...out].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/**
 * Canonical texts of versions, in the order that picks who keeps the id: content apart from ids
 * and references first (a rename elsewhere changes references — an entry whose parent an
 * earlier merge renamed must not lose or win the id for that, or merges would not be
 * associative), then the whole canonical text.
 */
function byContent(
  texts: string[],
  byText: ReadonlyMap<string, JsonRecord>,
  fields: ReferenceFields,
): string[] {
  const identity = new Map(
    texts.map((t) => [t, identityText(byText.get(t) as JsonRecord, fields)]),
  );
  return texts.sort((x, y) => {
    const [ix, iy] = [identity.get(x) as string, identity.get(y) as string];
    if (ix !== iy) return ix < iy ? -1 : 1;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * Renames the colliding versions in both copies, in place (their records and `changed` flags),
 * and returns what was renamed. References in each copy follow the version that copy's lookup
 * of the id gives. Works in rounds: versions that differ only in references may be one entry
 * whose reference an earlier rename changed in one copy (a copy merged before), so only
 * versions that differ in content are renamed while any are left; then the references are
 * followed, and what still collides is renamed too.
 */
export function renameCollisions(
  a: SessionCopy,
  b: SessionCopy,
  rule: CollisionRule,
  fields: ReferenceFields = referenceFieldsOf,
) {
  const renamed: RenamedEntry[] = [];
  const assigned = new Set<string>();
  for (;;) {
    const la = linesById(a);
    const lb = linesById(b);
    const colliding = collidingIds(la, lb);
    if (colliding.size === 0) return renamed;
    const records = (id: string) =>
      [...(la.get(id) ?? []), ...(lb.get(id) ?? [])].map((l) => l.record as JsonRecord);
    const byText = new Map<string, JsonRecord>();
    for (const id of colliding.keys()) for (const r of records(id)) byText.set(canonicalJson(r), r);
    const distinct = [...colliding.keys()].filter(
      (id) => new Set(records(id).map((r) => identityText(r, fields))).size > 1,
    );
    const renames = new Map<string, string>(); // canonical text of a version → its fresh id
    for (const id of distinct.length > 0 ? distinct : colliding.keys()) {
      const { sa, sb } = colliding.get(id) as { sa: Set<string>; sb: Set<string> };
      const all = byContent([...new Set([...sa, ...sb])], byText, fields);
      const keep = rule === "keep-a" ? sa : new Set(all.slice(0, 1));
      for (const text of all) {
        if (keep.has(text)) continue;
        const to = freshId(id, byText.get(text) as JsonRecord, records, assigned, fields);
        assigned.add(to);
        renames.set(text, to);
        renamed.push({ from: id, to, copy: sa.has(text) ? (sb.has(text) ? "both" : "a") : "b" });
      }
    }
    const ids = new Set(renamed.map((r) => r.from));
    applyRenames(a, la, ids, renames, fields);
    applyRenames(b, lb, ids, renames, fields);
  }
}

/**
 * Gives each renamed version its id and points the copy's references at the version its lookup
 * of the id gives (the last line with it, W15). Only ids in `ids` can be renamed.
 */
function applyRenames(
  copy: SessionCopy,
  byId: ReadonlyMap<string, readonly CopyLine[]>,
  ids: ReadonlySet<string>,
  renames: ReadonlyMap<string, string>,
  fields: ReferenceFields,
): void {
  // Resolved before any line changes: a reference names the version as the copy was read.
  const targets = new Map<string, string>();
  for (const id of ids) {
    const last = byId.get(id)?.at(-1);
    const to = last ? renames.get(canonicalJson(last.record)) : undefined;
    if (to !== undefined) targets.set(id, to);
  }
  const target = (id: string): string | undefined => targets.get(id);
  for (const line of copy.lines) {
    if (line.kind !== "entry" || !line.record) continue;
    const id = line.record.id as string;
    const own = ids.has(id) ? renames.get(canonicalJson(line.record)) : undefined;
    let record = renameReferences(line.record, target, fields);
    if (own !== undefined) record = { ...record, id: own };
    if (record !== line.record) {
      line.record = record;
      line.changed = true;
    }
  }
}
