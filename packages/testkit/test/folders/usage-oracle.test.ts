/**
 * The usage oracle on folders small enough to count by hand: the documented rules, one case
 * each (record normalisation, a fork counted once, exact duplicates, the branch, per day with
 * an offset, per model, numeric strings read either way).
 */
import { describe, expect, it } from "vitest";
import {
  diffSums,
  type FolderFile,
  type FolderRecord,
  recordSums,
  type SessionFolder,
  usageOracle,
} from "../../src/index.js";

const HEADER = { type: "session", version: 3 };

function assistant(id: string, parentId: string | null, timestamp: string, usage: object) {
  return {
    type: "message",
    id,
    parentId,
    timestamp,
    message: { role: "assistant", content: [], provider: "p", model: "m", usage, timestamp: 1 },
  };
}

function file(
  path: string,
  ts: string,
  records: FolderRecord[],
  extra: Partial<FolderFile> = {},
): FolderFile {
  let leafId: string | null = null;
  for (const r of records) if (typeof r.entry.id === "string") leafId = r.entry.id;
  return {
    path,
    kind: "session",
    header: { ...HEADER, id: path, timestamp: ts, cwd: "/w" },
    records,
    text: "",
    ancestors: [],
    leafId,
    values: [],
    ...extra,
  };
}

const u = (input: number, output: number, totalTokens?: number, cost = 0) => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  ...(totalTokens !== undefined ? { totalTokens } : {}),
  cost: { total: cost },
});

describe("usageOracle", () => {
  it("normalises one record: garbage and negatives count 0, a missing total is the sum", () => {
    expect(recordSums({ input: "400", output: -3, cacheRead: 5, cacheWrite: 1 })).toEqual({
      records: 1,
      input: 0,
      output: 0,
      cacheRead: 5,
      cacheWrite: 1,
      totalTokens: 6,
      cost: 0,
    });
    expect(
      recordSums({ input: "400", totalTokens: -1 }, { numericStrings: "parse" }).totalTokens,
    ).toBe(400);
    expect(recordSums({ totalTokens: 0, input: 9 }).totalTokens).toBe(0);
    expect(recordSums({ cost: { total: 0.5 } })).toMatchObject({
      records: 1,
      totalTokens: 0,
      cost: 0.5,
    });
  });

  it("counts a fork's copies once, duplicates twice in the tree, once on the branch", () => {
    const a1 = assistant("a1", null, "2026-01-05T23:30:00.000-02:00", u(100, 20, 120, 0.5));
    const a2 = assistant("a2", "a1", "2026-01-05T10:00:02.000Z", u(10, 5));
    const parent = file("--w--/p.jsonl", "2026-01-05T10:00:00.000Z", [
      { entry: a1, origin: "p#0" },
      { entry: a2, origin: "p#1" },
      { entry: a2, origin: "p#1" },
    ]);
    const own = assistant("f1", "a2", "2026-01-06T00:00:00.000Z", u(1, 1, 2));
    const fork = file(
      "--x--/f.jsonl",
      "2026-01-06T00:00:00.000Z",
      [...parent.records, { entry: own, origin: "f#0" }],
      { kind: "fork", source: parent.path, ancestors: [parent.path], parentLink: "moved" },
    );
    const folder: SessionFolder = { files: [fork, parent], deleted: [], values: [] };
    const usage = usageOracle(folder);
    expect(usage.total).toMatchObject({ records: 4, totalTokens: 120 + 15 + 15 + 2 });
    expect(usage.files[parent.path]).toMatchObject({
      own: { records: 3, totalTokens: 150 },
      unique: { records: 3, totalTokens: 150 },
      branch: { records: 2, totalTokens: 135 },
      copies: 0,
    });
    expect(usage.files[fork.path]).toMatchObject({
      own: { records: 4, totalTokens: 152 },
      unique: { records: 1, totalTokens: 2 },
      branch: { records: 3, totalTokens: 137 },
      copies: 3,
    });
    // 23:30 at -02:00 is 01:30 UTC on the 6th.
    expect(usage.byDay).toEqual({
      "2026-01-06": expect.objectContaining({ records: 2, totalTokens: 122 }),
      "2026-01-05": expect.objectContaining({ records: 2, totalTokens: 30 }),
    });
    expect(Object.keys(usage.byModel)).toEqual(["p/m"]);
    expect(diffSums(usage.total, { totalTokens: 152, cost: 0.5 + 1e-12 })).toEqual([]);
    expect(diffSums(usage.total, { records: 5 })).toEqual(["records: expected 4, got 5"]);
  });

  it("counts a record at the oldest file holding it, and tool/summary usage under Tools/summaries", () => {
    const c = {
      type: "compaction",
      id: "c1",
      parentId: null,
      timestamp: "2026-02-01T00:00:00.000Z",
      usage: u(7, 0, 7),
    };
    const older = file("--b--/o.jsonl", "2026-01-01T00:00:00.000Z", [{ entry: c, origin: "x#0" }]);
    const newer = file("--a--/n.jsonl", "2026-03-01T00:00:00.000Z", [
      { entry: c, origin: "x#0" },
      { entry: c, origin: "x#0" },
    ]);
    const usage = usageOracle({ files: [newer, older], deleted: [], values: [] });
    expect(usage.total.records).toBe(1);
    expect(usage.files[newer.path]?.copies).toBe(2);
    expect(usage.byModel).toEqual({
      "Tools/summaries": expect.objectContaining({ totalTokens: 7 }),
    });
  });

  it('counts assistant messages only when asked (records: "assistant")', () => {
    const at = "2025-01-01T00:00:00.000Z";
    const records: FolderRecord[] = [
      { entry: assistant("a", null, at, u(10, 1)), origin: "x#0" },
      {
        entry: {
          type: "usage",
          id: "b",
          parentId: "a",
          timestamp: at,
          provider: "p",
          model: "m",
          usage: u(5, 5),
        },
        origin: "x#1",
      },
      {
        entry: {
          type: "message",
          id: "c",
          parentId: "b",
          timestamp: at,
          message: { role: "toolResult", content: [], usage: u(1, 1), timestamp: 1 },
        },
        origin: "x#2",
      },
      {
        entry: {
          type: "compaction",
          id: "d",
          parentId: "c",
          timestamp: at,
          summary: "s",
          usage: u(2, 2),
        },
        origin: "x#3",
      },
    ];
    const folder: SessionFolder = { files: [file("x", at, records)], deleted: [], values: [] };
    expect(usageOracle(folder).total.records).toBe(4);
    const assistantOnly = usageOracle(folder, { records: "assistant" });
    expect(assistantOnly.total).toMatchObject({ records: 1, input: 10, output: 1 });
    expect(Object.keys(assistantOnly.byModel)).toEqual(["p/m"]);
  });

  it('counts an exact duplicate line twice by default, once with duplicateLines: "once"', () => {
    const at = "2025-01-01T00:00:00.000Z";
    const a = assistant("a", null, at, u(10, 1));
    const records: FolderRecord[] = [
      { entry: a, origin: "x#0" },
      { entry: a, origin: "x#0" },
    ];
    const folder: SessionFolder = { files: [file("x", at, records)], deleted: [], values: [] };
    const both = usageOracle(folder);
    const once = usageOracle(folder, { duplicateLines: "once" });
    expect([both.total.records, both.files.x?.own.records, both.files.x?.branch.records]).toEqual([
      2, 2, 1,
    ]);
    expect([once.total.records, once.files.x?.own.records, once.files.x?.branch.records]).toEqual([
      1, 1, 1,
    ]);
  });

  it("compares counts beyond 2^53 within 1e-9 relative, smaller ones exactly", () => {
    const sums = recordSums({ input: 2 ** 64, output: 7 });
    expect(diffSums(sums, { ...sums, input: 2 ** 64 + 4096 })).toEqual([]);
    expect(diffSums(sums, { ...sums, input: 2 ** 63 })).toHaveLength(1);
    expect(diffSums(sums, { ...sums, output: 8 })).toEqual(["output: expected 7, got 8"]);
  });
});
