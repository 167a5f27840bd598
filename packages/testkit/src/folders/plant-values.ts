/**
 * Odd values into a folder's sessions, and which files show them afterwards: a file shows
 * the values planted in the records it holds (a branched copy may leave some out), a
 * duplicate only where both lines are, a collision only while its partner is in another file
 * that exists.
 */
import {
  type DraftRecord,
  type HostileValueName,
  type HostileValueSpec,
  plantCollision,
  plantIdCollision,
  plantValue,
} from "./hostile-values.js";
import { usageSourceOf } from "./usage-source.js";

/** A file being built, as far as values go. */
export interface ValueHolder {
  readonly records: DraftRecord[];
  readonly values: Set<HostileValueName>;
}

/** Which values each record origin got, and the partner of each collision. */
export interface PlantedValues {
  readonly byOrigin: Map<string, Set<HostileValueName>>;
  /** `"<value name> <origin>"` → the origin of the other record of that collision. */
  readonly partners: Map<string, string>;
}

/**
 * Plants the values (all but `bom`, which goes on a finished file) into the sessions' records,
 * in place, before anything is copied from them.
 */
export function plantValues(
  drafts: readonly ValueHolder[],
  specs: readonly HostileValueSpec[],
  longLineLength: number,
): PlantedValues {
  const planted = new Map<string, Set<HostileValueName>>();
  const partners = new Map<string, string>();
  const mark = (r: DraftRecord, name: HostileValueName) => {
    const set = planted.get(r.origin) ?? new Set();
    set.add(name);
    planted.set(r.origin, set);
  };
  for (const spec of specs) {
    if (spec.name === "bom" || drafts.length === 0) continue;
    const target = drafts[spec.at % drafts.length] as ValueHolder;
    if (spec.name !== "collisions" && spec.name !== "entry-id-collisions") {
      const changed = plantValue(target.records, spec, longLineLength);
      if (changed) mark(changed, spec.name);
      continue;
    }
    if (drafts.length < 2) continue;
    const other = drafts[
      (drafts.indexOf(target) + 1 + (spec.variant % (drafts.length - 1))) % drafts.length
    ] as ValueHolder;
    // A record takes part in one collision at most: a second would move it away from the first.
    const free = (d: ValueHolder) =>
      d.records.filter(
        (r) =>
          (spec.name === "entry-id-collisions" || usageSourceOf(r.entry) !== undefined) &&
          !planted.get(r.origin)?.has(spec.name),
      );
    const a = free(target)[spec.pick % Math.max(1, free(target).length)];
    const b = free(other)[(spec.pick + spec.variant) % Math.max(1, free(other).length)];
    const done =
      a !== undefined &&
      b !== undefined &&
      (spec.name === "collisions" ? plantCollision(a, b) : plantIdCollision(a, b, other.records));
    if (done) {
      mark(a, spec.name);
      mark(b, spec.name);
      partners.set(`${spec.name} ${a.origin}`, b.origin);
      partners.set(`${spec.name} ${b.origin}`, a.origin);
    }
  }
  return { byOrigin: planted, partners };
}

/** Adds to each file's `values` the planted values it shows (rules in the module note). */
export function markShownValues(files: readonly ValueHolder[], planted: PlantedValues): void {
  const where = new Map<string, Set<ValueHolder>>();
  for (const d of files) {
    for (const r of d.records) where.set(r.origin, (where.get(r.origin) ?? new Set()).add(d));
  }
  for (const d of files) {
    const seen = new Set<string>();
    for (const r of d.records) {
      for (const v of planted.byOrigin.get(r.origin) ?? []) {
        const partner = planted.partners.get(`${v} ${r.origin}`);
        const shows =
          v === "duplicate-lines"
            ? seen.has(r.origin)
            : v === "collisions" || v === "entry-id-collisions"
              ? [...(where.get(partner ?? "") ?? [])].some((o) => o !== d)
              : true;
        if (shows) d.values.add(v);
      }
      seen.add(r.origin);
    }
  }
}
