/**
 * Structural damage to a valid log (SPEC W14, W15): dangling parents, cycles and duplicate
 * ids. Each damage touches entries no other damage touches (a cycle: all its members), so the
 * damages never interact and a loader reports exactly one diagnostic per damage: a dangling
 * parent is not part of a cycle, a duplicated entry is not in a cycle, and so on.
 */
import type { LoadDiagnosticKind, SessionEntry } from "@pi-sessions/core";
import type { DamageKind } from "./damage-types.js";

/** A structural damage, with numbers that pick its victims. */
export type StructuralSpec =
  | { kind: "dangling-parent"; pick: number }
  | { kind: "cycle"; pick: number; depth: number; turns: number }
  | { kind: "duplicate-id"; pick: number; at: number };

/** A damage whose line is not known yet. */
export interface PendingDamage {
  readonly kind: DamageKind;
  readonly entryId?: string;
  readonly expectedKind?: LoadDiagnosticKind;
  readonly describe: (line: number) => string;
}

/** A line of the damaged file, with the damage it carries. */
export interface TaggedLine {
  readonly raw: string;
  readonly damage: readonly PendingDamage[];
  /** The entry this line holds, when it is one a loader must recover. */
  readonly entry?: SessionEntry;
}

/** Applies `specs` in order; returns the damaged entries (duplicates inserted) as lines. */
export function applyStructuralDamage(
  entries: readonly SessionEntry[],
  specs: readonly StructuralSpec[],
): TaggedLine[] {
  const n = entries.length;
  const work = entries.slice();
  const index = new Map(entries.map((e, i) => [e.id, i] as const));
  const children: number[][] = entries.map(() => []);
  entries.forEach((e, i) => {
    const p = typeof e.parentId === "string" ? index.get(e.parentId) : undefined;
    if (p !== undefined) children[p]?.push(i);
  });
  const touched = new Set<number>();
  const tags: PendingDamage[][] = entries.map(() => []);
  const copies: { slot: number; line: TaggedLine }[] = [];
  let missing = 0;

  for (const spec of specs) {
    const free: number[] = [];
    for (let i = 0; i < n; i++) if (!touched.has(i)) free.push(i);
    if (free.length === 0) break;
    const v = free[spec.pick % free.length] as number;
    const victim = work[v] as SessionEntry;
    const id = victim.id;
    touched.add(v);
    switch (spec.kind) {
      case "dangling-parent": {
        const parentId = `missing-${missing++}`;
        work[v] = { ...victim, parentId };
        tags[v]?.push({
          kind: spec.kind,
          entryId: id,
          expectedKind: "dangling-parent",
          describe: (line) => `line ${line}: entry ${id} now names missing parent ${parentId}`,
        });
        break;
      }
      case "cycle": {
        // Walk down untouched children; the entry reached becomes the victim's parent.
        let d = v;
        for (let t = 0; t < spec.depth % 4; t++) {
          const next = (children[d] ?? []).filter((c) => !touched.has(c));
          if (next.length === 0) break;
          d = next[(spec.turns + t) % next.length] as number;
          touched.add(d);
        }
        const parentId = (work[d] as SessionEntry).id;
        work[v] = { ...victim, parentId };
        tags[v]?.push({
          kind: spec.kind,
          entryId: id,
          expectedKind: "cycle",
          describe: (line) =>
            d === v
              ? `line ${line}: entry ${id} made its own parent`
              : `line ${line}: entry ${id} made a child of its descendant ${parentId}`,
        });
        break;
      }
      case "duplicate-id": {
        const slot = v + (spec.at % (n - v));
        const copy = { ...victim };
        copies.push({
          slot,
          line: {
            raw: JSON.stringify(copy),
            entry: copy,
            damage: [
              {
                kind: spec.kind,
                entryId: id,
                expectedKind: "duplicate-id",
                describe: (line) => `line ${line}: repeats entry ${id}, shadowing the earlier one`,
              },
            ],
          },
        });
        break;
      }
    }
  }

  const out: TaggedLine[] = [];
  for (let i = 0; i < n; i++) {
    const entry = work[i] as SessionEntry;
    out.push({ raw: JSON.stringify(entry), entry, damage: tags[i] ?? [] });
    for (const c of copies) if (c.slot === i) out.push(c.line);
  }
  return out;
}
