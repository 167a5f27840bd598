/**
 * What the merge laws' generators produce (`merge-arbitraries.ts`): a law checked on inputs that
 * never contain the hard case proves nothing about it. Over a fixed sample, each case the
 * merge must get right shows up at least this often: id collisions, and a colliding entry named
 * by each kind of reference a rename must follow (children, labels, compactions' kept entry,
 * branch summaries, context edits); names and labels set on both sides (last-wins conflicts);
 * clocks that disagree; with three copies, one id minted on all three and collisions whose
 * parent also collides (renames that cascade).
 */

import type { SessionEntry } from "@pi-sessions/core";
import type { DivergedCopies } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divergedPairArb, divergedTripleArb } from "./merge-arbitraries.js";

type Entry = SessionEntry & Record<string, unknown>;

/** Each copy's own entries (after the common prefix). */
const newsOf = (d: DivergedCopies) =>
  d.copies.map((c) => c.entries.slice(d.prefix.length) as Entry[]);

/** The ids that name different entries in different copies. */
function collisions(d: DivergedCopies): Set<string> {
  const versions = new Map<string, Set<string>>();
  for (const entry of newsOf(d).flat()) {
    const set = versions.get(entry.id) ?? new Set();
    versions.set(entry.id, set.add(JSON.stringify(entry)));
  }
  return new Set([...versions].filter(([, v]) => v.size > 1).map(([id]) => id));
}

/** The share of `sample` for which `has` holds. */
function share(sample: readonly DivergedCopies[], has: (d: DivergedCopies) => boolean): number {
  return sample.filter(has).length / sample.length;
}

const SAMPLE = 1000;

describe("the merge laws' generators (fixed sample of 1000)", () => {
  const pairs = fc.sample(divergedPairArb, { numRuns: SAMPLE, seed: 20_260_301 });
  /** Whether an entry (of `type`, or any) refers to a colliding entry by `field`. */
  const refers = (d: DivergedCopies, type: string | undefined, field: string) => {
    const colliding = collisions(d);
    return newsOf(d)
      .flat()
      .some((e) => (type === undefined || e.type === type) && colliding.has(e[field] as string));
  };
  const both = (d: DivergedCopies, type: string) =>
    newsOf(d).every((news) => news.some((e) => e.type === type));

  it.each([
    { case: "an id collision", percent: 25, has: (d: DivergedCopies) => collisions(d).size > 0 },
    {
      case: "a child of a colliding entry",
      percent: 20,
      has: (d: DivergedCopies) => refers(d, undefined, "parentId"),
    },
    {
      case: "a label on a colliding entry",
      percent: 7,
      has: (d: DivergedCopies) => refers(d, "label", "targetId"),
    },
    {
      case: "a compaction keeping a colliding entry",
      percent: 7,
      has: (d: DivergedCopies) => refers(d, "compaction", "firstKeptEntryId"),
    },
    {
      case: "a branch summary from a colliding entry",
      percent: 5,
      has: (d: DivergedCopies) => refers(d, "branch_summary", "fromId"),
    },
    {
      case: "a context edit of a colliding entry",
      percent: 1,
      has: (d: DivergedCopies) => refers(d, "context_edit", "targetId"),
    },
    {
      case: "a session name on both sides",
      percent: 5,
      has: (d: DivergedCopies) => both(d, "session_info"),
    },
    { case: "labels on both sides", percent: 10, has: (d: DivergedCopies) => both(d, "label") },
    {
      case: "a clock going backwards",
      percent: 10,
      has: (d: DivergedCopies) =>
        d.copies.some((c) =>
          c.entries.some(
            (e, i) => i > 0 && e.timestamp < (c.entries[i - 1] as SessionEntry).timestamp,
          ),
        ),
    },
    {
      case: "entries of both sides at the same instant",
      percent: 0.5,
      has: (d: DivergedCopies) => {
        const [x = [], y = []] = newsOf(d);
        return x.some((e) => y.some((f) => f.timestamp === e.timestamp));
      },
    },
  ])("$case in at least $percent % of the pairs", ({ percent, has }) => {
    expect(100 * share(pairs, has)).toBeGreaterThanOrEqual(percent);
  });

  const triples = fc.sample(divergedTripleArb, { numRuns: SAMPLE, seed: 20_260_302 });

  it("one id minted on all three copies in at least 2 % of the triples", () => {
    const onAll = (d: DivergedCopies) =>
      [...collisions(d)].some((id) => newsOf(d).every((news) => news.some((e) => e.id === id)));
    expect(100 * share(triples, onAll)).toBeGreaterThanOrEqual(2);
  });

  it("a colliding entry whose parent collides too in at least 2 % of the triples", () => {
    const cascade = (d: DivergedCopies) => {
      const colliding = collisions(d);
      return newsOf(d)
        .flat()
        .some((e) => colliding.has(e.id) && colliding.has(e.parentId as string));
    };
    expect(100 * share(triples, cascade)).toBeGreaterThanOrEqual(2);
  });
});
