import {
  branchOf,
  createDeterministicEnv,
  type FileEntry,
  foldEntries,
  projectionState,
  replayState,
  type SessionEntry,
  SessionManager,
  type SessionState,
} from "@pi-sessions/core";
import {
  branchUsageTotals,
  computeUsageTotals,
  UNATTRIBUTED_USAGE_KEY,
  USAGE_TOTALS_PROJECTION_NAME,
  type UsageTotalsState,
  usageRecordOf,
  usageTotals,
} from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";
import { assistant, usage, user } from "./usage-fixtures.js";
import { comparable, naivePath, naiveTotals } from "./usage-oracle.js";

const env = () => createDeterministicEnv({ seed: 7 });

/** A raw `usage` entry with `usage(n)`, linked by hand (for damaged and out-of-order logs). */
function usageEntry(id: string, parentId: string | null, n: number, model = `m${n}`): SessionEntry {
  return {
    type: "usage",
    id,
    parentId,
    timestamp: "2025-01-01T00:00:00.000Z",
    kind: "k",
    provider: "p",
    model,
    usage: usage(n),
  } as unknown as SessionEntry;
}

/** Branch totals of a core session state with the projection installed, paths from core. */
function branchAt(session: SessionState, id: string) {
  const state = projectionState(session, USAGE_TOTALS_PROJECTION_NAME) as UsageTotalsState;
  return branchUsageTotals(state, id, (p) => branchOf(session, p));
}

/** A session using every place pi records usage, with a second branch. */
function everySource(): SessionManager {
  const sm = SessionManager.inMemory("/p", { env: env(), projections: [usageTotals] });
  const u = sm.appendMessage(user("q"));
  sm.appendMessage(assistant("a", usage(1)));
  sm.appendMessage({
    role: "toolResult",
    toolCallId: "c1",
    toolName: "subagent",
    content: [{ type: "text", text: "done" }],
    usage: usage(2, { reasoning: 4 }),
    isError: false,
    timestamp: 3,
  });
  sm.appendUsage("cache-warm", "openai", "gpt-5", usage(3, { cacheWrite1h: 6 }));
  const kept = sm.getLeafId() as string;
  sm.appendCompaction("sum", kept, 100, undefined, false, usage(4));
  sm.branchWithSummary(u, "left", undefined, false, usage(5));
  sm.appendMessage({ ...assistant("b", usage(6)), responseModel: "claude-x-2025" });
  return sm;
}

describe("computeUsageTotals", () => {
  it("counts assistant, toolResult, usage, compaction and branch_summary usage under their keys", () => {
    const sm = everySource();
    const { tree, branch, leafId } = computeUsageTotals(sm);
    expect(leafId).toBe(sm.getLeafId());
    expect(tree.records).toBe(6);
    expect(Object.keys(tree.byModel)).toEqual([
      "anthropic/claude-x",
      UNATTRIBUTED_USAGE_KEY,
      "openai/gpt-5",
      "anthropic/claude-x-2025",
    ]);
    expect(tree.byModel[UNATTRIBUTED_USAGE_KEY]?.records).toBe(3);
    expect(tree.input).toBe(10 * (1 + 2 + 3 + 4 + 5 + 6));
    expect(tree.reasoning).toBe(4);
    expect(tree.cacheWrite1h).toBe(6);
    // Branch: user, branch summary(5) (a child of the user message), assistant(6).
    expect(branch.records).toBe(2);
    expect(branch.input).toBe(10 * (5 + 6));
    expect(comparable(branch)).toEqual(naiveTotals(sm.getBranch()));
    expect(comparable(tree)).toEqual(naiveTotals(sm.getEntries()));
  });

  it("reuses an installed projection and agrees with a replay of the records", () => {
    const sm = everySource();
    const installed = sm.getProjectionState<UsageTotalsState>(USAGE_TOTALS_PROJECTION_NAME);
    expect(installed?.count).toBe(sm.getEntries().length);
    const fromRecords = computeUsageTotals(
      [sm.getHeader() as FileEntry, ...sm.getEntries()],
      sm.getLeafId(),
    );
    expect(computeUsageTotals(sm)).toEqual(fromRecords);
  });

  it("records: the default leaf is the last entry; null gives zero branch totals; unknown throws", () => {
    const sm = everySource();
    const entries = sm.getEntries();
    const last = computeUsageTotals(entries);
    expect(last.leafId).toBe(entries.at(-1)?.id);
    const none = computeUsageTotals(entries, null);
    expect(none.branch.records).toBe(0);
    expect(none.branch.cost.total).toBe(0);
    expect(none.tree).toEqual(last.tree);
    expect(() => computeUsageTotals(entries, "nope")).toThrow("Entry nope not found");
    expect(computeUsageTotals([])).toMatchObject({ leafId: null, tree: { records: 0 } });
  });

  it("garbage numbers count as 0, never NaN; a non-object usage is no record", () => {
    const base = { parentId: null, timestamp: "2025-01-01T00:00:00.000Z" };
    const entries = [
      {
        ...base,
        type: "usage",
        id: "u1",
        kind: "k",
        provider: 3,
        model: "",
        usage: { input: "12", output: Number.NaN, cacheRead: Number.POSITIVE_INFINITY, cost: null },
      },
      { ...base, type: "compaction", id: "c1", usage: "lots" },
      { ...base, type: "message", id: "m1", message: { role: "assistant", usage: [] } },
      { ...base, type: "message", id: "m2", message: null },
      { ...base, type: "usage", id: "u2", provider: "p", model: "m", usage: { input: 5 } },
    ] as unknown as SessionEntry[];
    const { tree } = computeUsageTotals(entries);
    expect(tree.records).toBe(2);
    expect(tree.input).toBe(5);
    expect(Object.keys(tree.byModel)).toEqual(["unknown/unknown", "p/m"]);
    for (const value of [tree.output, tree.cacheRead, tree.cost.total]) {
      expect(value).toBe(0);
    }
    // Neither record has a usable totalTokens: each counts its (cleaned) four counts, 0 + 5.
    expect(tree.totalTokens).toBe(5);
    expect(usageRecordOf(entries[1] as SessionEntry)).toBeUndefined();
  });

  it("totalFromProvider holds only when every summed record says so", () => {
    const base = {
      type: "usage",
      parentId: null,
      timestamp: "t",
      kind: "k",
      provider: "p",
      model: "m",
    };
    const provided = usage(1);
    provided.cost.totalFromProvider = true;
    const one = [{ ...base, id: "a", usage: provided }] as unknown as SessionEntry[];
    expect(computeUsageTotals(one).tree.cost.totalFromProvider).toBe(true);
    const two = [...one, { ...base, id: "b", usage: usage(2) }] as unknown as SessionEntry[];
    expect(computeUsageTotals(two).tree.cost.totalFromProvider).toBe(false);
    expect(computeUsageTotals([]).tree.cost.totalFromProvider).toBe(false);
  });

  it("an agent loop: branch back, read, append on, read — every answer matches the naive sum", () => {
    const sm = everySource();
    const early = sm.getEntries()[1]?.id as string;
    const check = () =>
      expect(comparable(computeUsageTotals(sm).branch)).toEqual(naiveTotals(sm.getBranch()));
    sm.branch(early);
    check(); // a walk, remembered
    sm.appendMessage(assistant("c", usage(7)));
    check(); // extended from the remembered walk
    sm.appendMessage(user("more"));
    sm.appendMessage(assistant("d", usage(8)));
    check(); // extended along the appends
    sm.branch(early);
    sm.appendMessage(assistant("e", usage(9))); // a sibling: nothing cached for its parent yet
    check();
    expect(comparable(computeUsageTotals(sm).tree)).toEqual(naiveTotals(sm.getEntries()));
  });

  it("damaged logs: a child before its parent and a reused id follow getBranch's path", () => {
    const rec = (id: string, parentId: string | null, n: number) => usageEntry(id, parentId, n);
    const entries: SessionEntry[] = [
      rec("child", "parent", 1),
      rec("parent", null, 2),
      rec("x", "parent", 3),
      rec("parent", "x", 4), // reuses an id: lookups now see this one (W15)
      rec("y", "parent", 5),
    ];
    for (const leaf of ["child", "parent", "x", "y"]) {
      const { branch } = computeUsageTotals(entries, leaf);
      expect(comparable(branch)).toEqual(naiveTotals(naivePath(entries, leaf)));
    }
    // The reused id makes x → parent(4) → x a cycle: walked once, not forever.
    expect(computeUsageTotals(entries, "y").branch.records).toBe(3);
  });

  it('a leaf with the id "" still gets its branch (getBranch reads "" as no entry)', () => {
    const header = { type: "session", version: 3, id: "s", timestamp: "t", cwd: "/p" };
    const records = [
      header,
      usageEntry("r", null, 1),
      usageEntry("", "r", 2),
      usageEntry("x", null, 4),
    ];
    for (const projections of [[], [usageTotals]]) {
      const sm = SessionManager.inMemory("/p", { env: env(), projections }, records as FileEntry[]);
      sm.branch(""); // not the entry folded last, so the answer is a walk
      expect(sm.getLeafId()).toBe("");
      expect(computeUsageTotals(sm).branch.input).toBe(10 * (1 + 2));
      expect(computeUsageTotals(sm, "r").branch.input).toBe(10);
    }
  });

  it("a remembered walk is not reused once a later entry completes an orphan's path", () => {
    const rec = (id: string, parentId: string | null, n: number) =>
      usageEntry(id, parentId, n, "m");
    let session = replayState(
      null,
      [rec("orphan", "late", 1), rec("other", null, 2)],
      [usageTotals],
    );
    expect(branchAt(session, "orphan")?.records).toBe(1); // walked and remembered
    session = foldEntries(session, [rec("late", null, 3)]);
    expect(branchAt(session, "orphan")?.records).toBe(2);
    session = foldEntries(session, [rec("child", "orphan", 4)]);
    expect(branchAt(session, "child")?.input).toBe(10 * (3 + 1 + 4));
  });

  it("two appends onto one snapshot never share a remembered walk", () => {
    const rec = (id: string, parentId: string | null, n: number) =>
      usageEntry(id, parentId, n, "m");
    const base = replayState(null, [rec("a", null, 1), rec("b", null, 2)], [usageTotals]);
    // Same length, same ids, different paths to c; c is not the entry folded last, so each
    // answer is a walk that the state remembers.
    const left = foldEntries(base, [rec("c", "a", 3), rec("d", null, 5)]);
    const right = foldEntries(base, [rec("c", "b", 4), rec("d", null, 5)]);
    expect(branchAt(left, "c")?.input).toBe(10 * (1 + 3));
    expect(branchAt(right, "c")?.input).toBe(10 * (2 + 4));
    expect(branchAt(left, "c")?.input).toBe(10 * (1 + 3));
  });
});
