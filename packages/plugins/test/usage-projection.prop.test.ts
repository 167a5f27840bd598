import {
  branchOf,
  foldEntries,
  projectionState,
  replayProjection,
  replayState,
  type SessionEntry,
  type SessionState,
} from "@pi-sessions/core";
import { initialState } from "@pi-sessions/core/internal";
import {
  branchUsageTotals,
  treeUsageTotals,
  USAGE_TOTALS_PROJECTION_NAME,
  type UsageTotalsState,
  usageDiagnostics,
  usageTotals,
} from "@pi-sessions/plugins";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { usageRecordArb } from "./render-arbitraries.js";
import { comparable, naiveDiagnostics, naivePath, naiveTotals } from "./usage-oracle.js";

const settings = fcOptions(300);
const runs = settings.numRuns;

/** Numbers as files hold them, plus the garbage foreign writers produce. */
const num = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 100_000 }) },
  { weight: 3, arbitrary: fc.double({ min: 0, max: 10, noNaN: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(Number.NaN, Number.POSITIVE_INFINITY, "7", null, -3),
  },
  // Negative counts and costs: reported as diagnostics, never summed.
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: -1 }) },
);
const usageArb = fc.oneof(
  {
    weight: 8,
    arbitrary: usageRecordArb(num, (cost) => fc.oneof(cost, fc.constant(null)), [
      "input",
      "output",
      "cost",
    ]),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, "x", 3, []) },
);
const model = fc.constantFrom("p/a", "p/b", "q/a", "/", "");

/** The type-specific part of an entry (everything but id, parentId, timestamp). */
const body = fc.oneof(
  fc.record({
    type: fc.constant("message"),
    message: fc.record({
      role: fc.constant("assistant"),
      provider: fc.constantFrom("p", "q"),
      model,
      responseModel: fc.option(model, { nil: undefined }),
      usage: usageArb,
    }),
  }),
  fc.record({
    type: fc.constant("message"),
    message: fc.record({ role: fc.constantFrom("toolResult", "user"), usage: usageArb }),
  }),
  fc.record({ type: fc.constantFrom("compaction", "branch_summary"), usage: usageArb }),
  fc.record({
    type: fc.constant("usage"),
    provider: fc.constantFrom("p", "q"),
    model,
    usage: usageArb,
  }),
  fc.record({ type: fc.constantFrom("label", "custom", "future_type") }),
);

/**
 * Logs with real tree structure and some damage: ids come from a small pool (reuse happens),
 * parents are mostly earlier ids but sometimes null, missing or later ones.
 */
const logArb = fc
  .array(
    fc.record({
      body,
      idPick: fc.nat(),
      reuse: fc.integer({ min: 0, max: 19 }),
      parentPick: fc.nat(),
      parentKind: fc.integer({ min: 0, max: 19 }),
    }),
    { maxLength: 40 },
  )
  .map((specs) => {
    const entries: SessionEntry[] = [];
    specs.forEach((s, i) => {
      const ids = entries.map((e) => e.id);
      const id = s.reuse === 0 && ids.length > 0 ? (ids[s.idPick % ids.length] as string) : `e${i}`;
      let parentId: string | null;
      if (s.parentKind === 0 || ids.length === 0) parentId = null;
      else if (s.parentKind === 1)
        parentId = `e${i + 1 + (s.parentPick % 3)}`; // later or missing
      else parentId = ids[ids.length - 1 - (s.parentPick % Math.min(ids.length, 4))] as string;
      entries.push({
        ...s.body,
        id,
        parentId,
        timestamp: "2025-01-01T00:00:00.000Z",
      } as SessionEntry);
    });
    return entries;
  });

/** A usage state with the session state that folded the same entries (it answers paths). */
interface Folded {
  readonly usage: UsageTotalsState;
  readonly session: SessionState;
}

function usageOf(session: SessionState): Folded {
  const usage = projectionState(session, USAGE_TOTALS_PROJECTION_NAME) as UsageTotalsState;
  return { usage, session };
}

function branchAt({ usage, session }: Folded, id: string | null) {
  return branchUsageTotals(usage, id, (p) => branchOf(session, p));
}

/** Everything a state answers: tree and diagnostics, branch totals at every id and at null. */
function view(state: Folded, entries: readonly SessionEntry[]) {
  const ids = [...new Set(entries.map((e) => e.id))];
  return {
    tree: treeUsageTotals(state.usage),
    diagnostics: usageDiagnostics(state.usage),
    branches: [null, ...ids, "missing"].map((id) => branchAt(state, id)),
  };
}

/** The one-shot runner's state, with a session over the same entries for the paths. */
function replayed(entries: readonly SessionEntry[]): Folded {
  return { usage: replayProjection(usageTotals, entries), session: replayState(null, entries) };
}

describe("usageTotals projection laws (I6, I9)", () => {
  it(`incremental fold = replay = the naive oracle on random logs (${runs} runs)`, () => {
    fc.assert(
      fc.property(logArb, (entries) => {
        const incremental = usageOf(foldEntries(initialState(null, [usageTotals]), entries));
        const viaCore = usageOf(replayState(null, entries, [usageTotals]));
        expect(view(incremental, entries)).toEqual(view(replayed(entries), entries));
        expect(view(viaCore, entries)).toEqual(view(replayed(entries), entries));
        expect(comparable(treeUsageTotals(incremental.usage))).toEqual(naiveTotals(entries));
        const reported = usageDiagnostics(incremental.usage).map((d) => ({
          entryId: d.entryId,
          field: d.field,
          value: d.value,
        }));
        expect(reported).toEqual(naiveDiagnostics(entries));
        for (const e of entries) {
          const branch = branchAt(incremental, e.id);
          expect(comparable(branch as NonNullable<typeof branch>)).toEqual(
            naiveTotals(naivePath(entries, e.id)),
          );
        }
      }),
      settings,
    );
  });

  it(`snapshots never change; folding onto an old snapshot = replaying its log (${runs} runs)`, () => {
    fc.assert(
      fc.property(logArb, logArb, fc.nat(), (entries, other, cut) => {
        const k = entries.length === 0 ? 0 : cut % (entries.length + 1);
        const prefix = entries.slice(0, k);
        const snapshot = replayState(null, prefix, [usageTotals]);
        const before = view(usageOf(snapshot), prefix);
        // Continue the newest snapshot, then branch off the old one with another suffix: the
        // core runner hands the projection's apply a context over each snapshot's own log.
        const full = usageOf(foldEntries(snapshot, entries.slice(k)));
        const forked = usageOf(foldEntries(snapshot, other));
        expect(view(usageOf(snapshot), prefix)).toEqual(before);
        expect(view(full, entries)).toEqual(view(replayed(entries), entries));
        const both = [...prefix, ...other];
        expect(view(forked, both)).toEqual(view(replayed(both), both));
      }),
      settings,
    );
  });

  it(`records without totalTokens count input + output + cacheRead + cacheWrite (${runs} runs)`, () => {
    const count = fc.integer({ min: 0, max: 1_000_000 });
    const recordArb = fc.record(
      {
        input: count,
        output: count,
        cacheRead: count,
        cacheWrite: count,
        totalTokens: count,
      },
      { requiredKeys: ["input", "output", "cacheRead", "cacheWrite"] },
    );
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 30 }), (usages) => {
        const entries = usages.map(
          (u, i) =>
            ({
              type: "usage",
              id: `u${i}`,
              parentId: i === 0 ? null : `u${i - 1}`,
              timestamp: "2025-01-01T00:00:00.000Z",
              kind: "k",
              provider: "p",
              model: "m",
              usage: u,
            }) as unknown as SessionEntry,
        );
        // Written out here rather than through the oracle: omitted → the four counts' sum.
        const expected = usages.reduce(
          (n, u) => n + (u.totalTokens ?? u.input + u.output + u.cacheRead + u.cacheWrite),
          0,
        );
        const state = replayProjection(usageTotals, entries);
        expect(treeUsageTotals(state).totalTokens).toBe(expected);
        const leaf = entries.at(-1)?.id ?? null;
        const session = replayState(null, entries);
        expect(branchUsageTotals(state, leaf, (p) => branchOf(session, p))?.totalTokens).toBe(
          expected,
        );
        expect(usageDiagnostics(state)).toEqual([]);
      }),
      settings,
    );
  });
});
