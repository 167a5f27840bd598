/**
 * How one usage record is read: the `totalTokens` fallback of older pi files and the
 * diagnostics of negative counts and costs (left out of the sums), against the naive oracle.
 */
import { createDeterministicEnv, type SessionEntry, SessionManager } from "@pi-sessions/core";
import { computeUsageTotals, usageTotals } from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";
import { assistant, usage, user } from "./usage-fixtures.js";
import { comparable, naiveDiagnostics, naiveTotals } from "./usage-oracle.js";

const env = () => createDeterministicEnv({ seed: 7 });

describe("usage record fields", () => {
  it("a record without totalTokens counts input + output + cacheRead + cacheWrite; a recorded one is kept", () => {
    const base = { parentId: null, timestamp: "t", kind: "k", provider: "p", model: "m" };
    const { totalTokens: _omitted, ...old } = usage(1); // 10 + 5 + 3 + 2 = 20
    const entries = [
      { ...base, type: "usage", id: "old", usage: old },
      { ...base, type: "usage", id: "new", usage: { ...usage(2), totalTokens: 7 } },
      { ...base, type: "usage", id: "str", usage: { ...usage(3), totalTokens: "60" } },
    ] as unknown as SessionEntry[];
    const { tree, diagnostics } = computeUsageTotals(entries);
    expect(tree.totalTokens).toBe(20 + 7 + 60);
    expect(tree.byModel["p/m"]?.totalTokens).toBe(87);
    expect(diagnostics).toEqual([]);
  });

  it("a negative count or cost is a diagnostic naming the entry and field, and is not summed", () => {
    const base = { parentId: null, timestamp: "t", kind: "k", provider: "p", model: "m" };
    const bad = usage(1, { output: -12, totalTokens: -1 });
    bad.cost.total = -0.5;
    const entries = [
      { ...base, type: "usage", id: "ok", usage: usage(2) },
      { ...base, type: "usage", id: "bad", usage: bad },
    ] as unknown as SessionEntry[];
    const result = computeUsageTotals(entries);
    expect(
      result.diagnostics.map(({ entryId, source, field, value }) => [
        entryId,
        source,
        field,
        value,
      ]),
    ).toEqual([
      ["bad", "usage", "output", -12],
      ["bad", "usage", "totalTokens", -1],
      ["bad", "usage", "cost.total", -0.5],
    ]);
    expect(result.diagnostics[0]?.message).toBe(
      "entry bad (usage): usage.output is -12; not counted",
    );
    // The rest of the bad record counts; the negative fields count 0 and the unusable total
    // falls back to the record's four (non-negative) counts: 10 + 0 + 3 + 2.
    expect(result.tree.records).toBe(2);
    expect(result.tree.input).toBe(20 + 10);
    expect(result.tree.output).toBe(10);
    expect(result.tree.totalTokens).toBe(40 + 15);
    expect(result.tree.cost.total).toBeCloseTo(0.066, 12);
    expect(result.branch.output).toBe(0); // the branch at "bad" is that one record
    expect(comparable(result.tree)).toEqual(naiveTotals(entries));
    expect(
      result.diagnostics.map(({ entryId, field, value }) => ({ entryId, field, value })),
    ).toEqual(naiveDiagnostics(entries));
  });

  it("an installed projection reports the same diagnostics as a replay, for every source", () => {
    const sm = SessionManager.inMemory("/p", { env: env(), projections: [usageTotals] });
    sm.appendMessage(user("q"));
    sm.appendMessage(assistant("a", usage(1, { input: -1 })));
    const leaf = sm.getLeafId() as string;
    sm.appendCompaction("sum", leaf, 100, undefined, false, usage(1, { cacheRead: -2 }));
    const { diagnostics } = computeUsageTotals(sm);
    expect(diagnostics.map((d) => [d.source, d.field])).toEqual([
      ["assistant", "input"],
      ["compaction", "cacheRead"],
    ]);
    expect(diagnostics[0]?.entryId).toBe(leaf);
    expect(computeUsageTotals(sm.getEntries(), sm.getLeafId()).diagnostics).toEqual(diagnostics);
  });
});
