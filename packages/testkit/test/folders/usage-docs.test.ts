/**
 * The testkit README's "What counts as usage" table says what `usageSourceOf` does: for each
 * kind of record, the row names where its usage is and which key it is counted under, and the
 * function agrees; with `records: "assistant"` only the assistant row counts. A change of rule
 * without a change of the shipped docs (or the reverse) fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type SessionFolder, SUMMARIES_KEY, usageOracle, usageSourceOf } from "../../src/index.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const section = README.slice(
  README.indexOf("## What counts as usage"),
  README.indexOf("## `checkReader`"),
);
const rows = section.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| ---"));

const usage = {
  input: 1,
  output: 2,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 3,
  cost: { total: 0.5 },
};
const at = { id: "e1", parentId: null, timestamp: "2025-01-01T00:00:00.000Z" };
const message = (m: object) => ({
  ...at,
  type: "message",
  message: { content: [], timestamp: 1, ...m },
});

/** Each documented row: a record of that kind, the row's first words, its key. */
const CASES = [
  {
    row: "assistant message",
    record: message({ role: "assistant", provider: "p", model: "m", responseModel: "r", usage }),
    key: "p/r",
  },
  {
    row: "`usage` entry",
    record: { ...at, type: "usage", provider: "p", model: "m", usage },
    key: "p/m",
  },
  {
    row: "tool result message",
    record: message({ role: "toolResult", usage }),
    key: SUMMARIES_KEY,
  },
  {
    row: "`compaction` entry",
    record: { ...at, type: "compaction", summary: "s", usage },
    key: SUMMARIES_KEY,
  },
  {
    row: "`branch_summary` entry",
    record: { ...at, type: "branch_summary", summary: "s", usage },
    key: SUMMARIES_KEY,
  },
  { row: "anything else", record: message({ role: "user", usage }), key: undefined },
] as const;

describe("the README's usage rules", () => {
  it("has one row per kind of record, and usageSourceOf agrees with each", () => {
    expect(
      rows.slice(1).map(
        (r) =>
          r
            .split("|")[1]
            ?.trim()
            .split(/ \(|, /)[0],
      ),
    ).toEqual(CASES.map((c) => c.row));
    for (const c of CASES) {
      const row = rows.find((r) => r.includes(`| ${c.row}`)) as string;
      const source = usageSourceOf(c.record);
      expect(source?.key, c.row).toBe(c.key);
      if (c.key === SUMMARIES_KEY) expect(row).toContain("`Tools/summaries`");
      if (c.key === undefined) expect(row).toContain("none");
    }
    expect(section).toContain("`responseModel` before `model`");
    expect(usageSourceOf(message({ role: "assistant", usage }))?.key).toBe("unknown/unknown");
    expect(section).toContain("written `unknown`");
  });

  it('records: "assistant" counts the assistant row only', () => {
    const records = CASES.map((c, i) => ({
      entry: { ...c.record, id: `e${i}` },
      origin: `f#${i}`,
    }));
    const file = {
      path: "f",
      kind: "session" as const,
      header: { type: "session", version: 3, id: "s", timestamp: at.timestamp, cwd: "/w" },
      records,
      text: "",
      ancestors: [],
      leafId: "e5",
      values: [],
    };
    const folder: SessionFolder = { files: [file], deleted: [], values: [] };
    expect(usageOracle(folder).total.records).toBe(5);
    expect(usageOracle(folder, { records: "assistant" }).byModel).toEqual({
      "p/r": expect.objectContaining({ records: 1 }),
    });
  });
});
