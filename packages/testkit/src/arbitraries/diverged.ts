/**
 * Copies of one session that went separate ways, as on two or three machines syncing a sessions
 * folder: a common prefix, then each copy's own appends (messages, labels, names, compactions,
 * branch moves — whatever {@link logStepArb} generates), optionally with forced id collisions
 * (an entry of one copy takes the id of a different entry of another), which is what the merge
 * of SPEC §14 M2 must survive. A colliding entry is then also referred to, in each copy that
 * holds it, by entries appended at the end: a child, a label, a compaction that keeps it, a
 * branch summary from it, a context edit on it, a session name — every field a rename must
 * follow, which the random steps alone reach in only a few percent of the cases. Every copy is
 * a valid log on its own.
 */

import type { SessionEntry, SessionHeader } from "@pi-sessions/core";
import { ENTRY_TYPE_NAMES, ENTRY_TYPES } from "@pi-sessions/core";
import fc from "fast-check";
import { entryIdFor } from "./common.js";
import { buildEntry } from "./entry-build.js";
import { type BodySpec, bodySpecArb, type EntryKind } from "./entry-specs.js";
import { sessionHeaderArb } from "./header.js";
import { type SessionLog, sessionToJsonl } from "./jsonl.js";
import { buildLogEntries, logStepArb, type SessionLogOptions } from "./session-log.js";

/** Options of {@link divergedCopiesArb}. */
export interface DivergedOptions extends Omit<SessionLogOptions, "minEntries" | "maxEntries"> {
  /** How many copies (default 2). */
  copies?: number;
  /** Most entries in the common prefix (default 12). */
  maxPrefix?: number;
  /** Most entries each copy appends on its own (default 10). */
  maxNews?: number;
  /** Force some of a copy's new entries to reuse another copy's new ids (default true). */
  collisions?: boolean;
  /**
   * Append entries that refer to each colliding entry, in each copy that holds it (default
   * true; only with `collisions`).
   */
  references?: boolean;
}

/** Copies of one session with a common prefix. */
export interface DivergedCopies {
  readonly header: SessionHeader;
  /** The entries every copy starts with. */
  readonly prefix: readonly SessionEntry[];
  /** Each copy: the prefix, then its own entries. */
  readonly copies: readonly SessionLog[];
  /** Ids two copies use for different new entries. */
  readonly collidingIds: readonly string[];
}

/** Salt offset between copies: their own ids never meet unless forced. */
const COPY_SALT = 1 << 24;

/**
 * A forced collision: copy `copy`'s new entry `index` takes copy `from`'s new entry
 * `fromIndex`'s id; `refer` and `referFrom` are entries that then refer to it in either copy.
 */
interface ForcedId {
  readonly copy: number;
  readonly index: number;
  readonly from: number;
  readonly fromIndex: number;
  readonly refer: readonly BodySpec[];
  readonly referFrom: readonly BodySpec[];
}

/**
 * The kinds of entry appended to refer to a colliding entry: every built-in type that names
 * another entry (core's `ENTRY_TYPES[type].references`, so a new referring type is collided on
 * at once), plus a message and a session name, plain children whose parent is the collision.
 */
const REFERRING: readonly EntryKind[] = [
  "message",
  ...ENTRY_TYPE_NAMES.filter((type) => ENTRY_TYPES[type].references.length > 0),
  "session_info",
];

/**
 * The entry `spec` builds as a reference to `target` (an entry of `entries`), appended after
 * them with id `id` at `ms`: a branch summary hangs at the target's parent and names the target
 * as the leaf it came from; every other kind hangs below the target, so a label, compaction or
 * context edit sees it on its path (and picks it, when it is the kind of entry that it can).
 */
function referTo(spec: BodySpec, target: SessionEntry, id: string, ms: number): SessionEntry {
  const summary = spec.kind === "branch_summary";
  return buildEntry(spec, {
    id,
    parentId: summary ? target.parentId : target.id,
    ms,
    ids: [target.id],
    earlierCount: 1,
    path: () => [target],
    previousId: target.id,
  });
}

/** Copies of one session that diverged after a common prefix; see the module notes. */
export function divergedCopiesArb(options: DivergedOptions = {}): fc.Arbitrary<DivergedCopies> {
  const n = options.copies ?? 2;
  const step = logStepArb(options);
  const news = fc.array(step, { maxLength: options.maxNews ?? 10 });
  const referring =
    options.references === false
      ? fc.constant([])
      : fc.array(bodySpecArb(REFERRING, options), { maxLength: 3 });
  const forced: fc.Arbitrary<ForcedId[]> =
    options.collisions === false
      ? fc.constant([])
      : fc.array(
          fc.record({
            copy: fc.nat(n - 1),
            index: fc.nat(20),
            from: fc.nat(n - 1),
            fromIndex: fc.nat(20),
            refer: referring,
            referFrom: referring,
          }),
          { maxLength: 3 },
        );
  return fc
    .tuple(
      sessionHeaderArb({ unknownFields: options.unknownFields, ...options.header }),
      fc.nat(),
      fc.array(step, { maxLength: options.maxPrefix ?? 12 }),
      fc.array(news, { minLength: n, maxLength: n }),
      forced,
    )
    .map(([header, salt, prefixSteps, ownSteps, force]) => {
      const start = Date.parse(header.timestamp);
      const p = prefixSteps.length;
      const ids = ownSteps.map((own, c) =>
        [...prefixSteps, ...own].map((_, i) =>
          entryIdFor(i < p ? i : i + (c + 1) * COPY_SALT, salt, options.ids),
        ),
      );
      const collidingIds: string[] = [];
      // Per copy: the entries (by index) that refer to a colliding entry, to append.
      const refers = ownSteps.map((): [number, BodySpec][] => []);
      for (const f of force) {
        const to = ids[f.copy] as string[];
        const from = ids[f.from] as string[];
        const own = to.length - p;
        const theirs = from.length - p;
        // Only between two copies' own entries, and never twice in one copy.
        if (f.copy === f.from || own === 0 || theirs === 0) continue;
        const at = p + (f.index % own);
        const fromAt = p + (f.fromIndex % theirs);
        const id = from[fromAt] as string;
        if (to.includes(id)) continue;
        to[at] = id;
        collidingIds.push(id);
        for (const spec of f.refer) refers[f.copy]?.push([at, spec]);
        for (const spec of f.referFrom) refers[f.from]?.push([fromAt, spec]);
      }
      const copies = ownSteps.map((own, c): SessionLog => {
        const steps = [...prefixSteps, ...own];
        const entries = buildLogEntries(steps, start, salt, options.ids, ids[c]);
        let ms = entries.reduce((max, e) => Math.max(max, Date.parse(e.timestamp)), start);
        for (const [at, spec] of refers[c] ?? []) {
          const id = entryIdFor(entries.length + (c + 1) * COPY_SALT, salt, options.ids);
          ms += 1000;
          entries.push(referTo(spec, entries[at] as SessionEntry, id, ms));
        }
        const last = entries[entries.length - 1];
        return {
          header,
          entries,
          jsonl: sessionToJsonl(header, entries),
          leafId: last?.id ?? null,
        };
      });
      const prefix = copies[0]?.entries.slice(0, p) ?? [];
      return { header, prefix, copies, collidingIds };
    });
}
