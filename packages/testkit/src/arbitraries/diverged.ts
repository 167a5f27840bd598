/**
 * Copies of one session that went separate ways, as on two or three machines syncing a sessions
 * folder: a common prefix, then each copy's own appends (messages, labels, names, compactions,
 * branch moves — whatever {@link logStepArb} generates), optionally with forced id collisions
 * (an entry of one copy takes the id of a different entry of another), which is what the merge
 * of SPEC §14 M2 must survive. Every copy is a valid log on its own.
 */

import type { SessionEntry, SessionHeader } from "@pi-sessions/core";
import fc from "fast-check";
import { entryIdFor } from "./common.js";
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

/** A forced collision: copy `copy`'s new entry `index` takes copy `from`'s new entry `fromIndex`'s id. */
interface ForcedId {
  readonly copy: number;
  readonly index: number;
  readonly from: number;
  readonly fromIndex: number;
}

/** Copies of one session that diverged after a common prefix; see the module notes. */
export function divergedCopiesArb(options: DivergedOptions = {}): fc.Arbitrary<DivergedCopies> {
  const n = options.copies ?? 2;
  const step = logStepArb(options);
  const news = fc.array(step, { maxLength: options.maxNews ?? 10 });
  const forced: fc.Arbitrary<ForcedId[]> =
    options.collisions === false
      ? fc.constant([])
      : fc.array(
          fc.record({
            copy: fc.nat(n - 1),
            index: fc.nat(20),
            from: fc.nat(n - 1),
            fromIndex: fc.nat(20),
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
      for (const f of force) {
        const to = ids[f.copy] as string[];
        const from = ids[f.from] as string[];
        const own = to.length - p;
        const theirs = from.length - p;
        // Only between two copies' own entries, and never twice in one copy.
        if (f.copy === f.from || own === 0 || theirs === 0) continue;
        const at = p + (f.index % own);
        const id = from[p + (f.fromIndex % theirs)] as string;
        if (to.includes(id)) continue;
        to[at] = id;
        collidingIds.push(id);
      }
      const copies = ownSteps.map((own, c): SessionLog => {
        const entries = buildLogEntries([...prefixSteps, ...own], start, salt, options.ids, ids[c]);
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
