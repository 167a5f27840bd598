/**
 * The naive counter against the testkit: `checkReader` writes generated sessions roots to temp
 * directories, runs the counter (as a function, and as a command line) and compares its totals
 * with the oracle's. It finds both planted bugs and shrinks each to a folder of at most three
 * files; on folders without forks or collisions the counter is right (so the property itself
 * is not what fails). The first bug is looked for among folders where no two different records
 * share time and tokens, so that its shrinking cannot end at the second.
 *
 * Run counts: FC_RUNS overrides them; FC_SEED (with FC_PATH) replays a failure.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkReader,
  type HostileValueName,
  type SessionFolder,
  sessionFolderArb,
  usageOracle,
  usageSourceOf,
} from "@pi-sessions/testkit";
import { describe, expect, it } from "vitest";
import { type CounterTotals, countUsage } from "../src/counter.js";

const runs = (n: number) => Number(process.env.FC_RUNS ?? n);

/** The counter's totals are the folder's: each record once, tokens and cost summed. */
function sameTotals(got: CounterTotals, folder: SessionFolder): boolean {
  const want = usageOracle(folder).total;
  expect({ records: got.records, totalTokens: got.totalTokens }).toEqual({
    records: want.records,
    totalTokens: want.totalTokens,
  });
  expect(got.cost).toBeCloseTo(want.cost, 6);
  return true;
}

/** Whether no two different records (origins) of the folder share timestamp and totalTokens. */
function noSharedKeys(folder: SessionFolder): boolean {
  const owner = new Map<string, string>();
  for (const file of folder.files) {
    for (const { entry, origin } of file.records) {
      const usage = usageSourceOf(entry)?.usage;
      if (!usage) continue;
      const key = `${entry.timestamp}|${JSON.stringify(usage.totalTokens)}`;
      if ((owner.get(key) ?? origin) !== origin) return false;
      owner.set(key, origin);
    }
  }
  return true;
}

/** Odd values the counter handles (every one but exact duplicate lines and collisions). */
const HANDLED: HostileValueName[] = [
  "timestamp-microseconds",
  "timestamp-offset",
  "numeric-strings",
  "cost-without-tokens",
  "zero-and-negative",
  "no-total-tokens",
  "line-separators",
  "bom",
  "long-lines",
];

describe("the naive usage counter under checkReader", () => {
  it("bug 1: a fork's or branched session's copies of abandoned branches count twice (≤ 3 files)", async () => {
    // Without two different records sharing time and tokens, so that shrinking cannot wander
    // off to bug 2 (the smallest values are equal everywhere).
    const report = await checkReader(countUsage, sameTotals, {
      numRuns: runs(300),
      arbitrary: sessionFolderArb({ derived: ["fork", "branched"] }).filter(noSharedKeys),
      // The test asserts the minimal folder: shrinking finishes however slow the machine is.
      shrinkTimeLimitMs: Number.POSITIVE_INFINITY,
    });
    expect(report.failed).toBe(true);
    const files = report.folder?.files ?? [];
    expect(files.length).toBeLessThanOrEqual(3);
    expect(files.some((f) => f.kind === "fork" || f.kind === "branched")).toBe(true);
    expect(report.text).toContain("parentSession resolvable");
  });

  it("bug 2: a record of another session with the same time and tokens is dropped (≤ 3 files)", async () => {
    const report = await checkReader(countUsage, sameTotals, {
      numRuns: runs(300),
      folder: { derived: ["copy"], values: ["collisions"] },
      shrinkTimeLimitMs: Number.POSITIVE_INFINITY,
    });
    expect(report.failed).toBe(true);
    const files = report.folder?.files ?? [];
    expect(files.length).toBeLessThanOrEqual(3);
    // Two records of two files with the same time and tokens (shrinking may make them so even
    // where no collision was planted: the smallest values are the same everywhere).
    const keyed = files.flatMap((f) =>
      f.records.flatMap(({ entry }) => {
        const usage = usageSourceOf(entry)?.usage;
        return usage ? [{ f, id: entry.id, key: `${entry.timestamp}|${usage.totalTokens}` }] : [];
      }),
    );
    expect(
      keyed.some((a) => keyed.some((b) => a.f !== b.f && a.id !== b.id && a.key === b.key)),
    ).toBe(true);
  });

  it(`is right without forks and collisions, odd values and copies included (${runs(300)} folders)`, async () => {
    const report = await checkReader(countUsage, sameTotals, {
      numRuns: runs(300),
      arbitrary: sessionFolderArb({
        derived: ["copy"],
        values: HANDLED,
        longLineLength: 70_000,
      }).filter(noSharedKeys),
    });
    expect(report.text).toBe(`checkReader: ${runs(300)} folders passed (seed ${report.seed})`);
  });

  it(`as a command line: the CLI's JSON is judged the same way (${runs(10)} folders)`, async () => {
    const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
    const report = await checkReader(
      {
        command: process.execPath,
        args: ["--conditions=@pi-sessions/source", "--import", "tsx", main, "{root}"],
        cwd: join(main, "..", ".."),
        parse: (stdout) => JSON.parse(stdout) as CounterTotals,
      },
      sameTotals,
      {
        numRuns: runs(10),
        arbitrary: sessionFolderArb({ derived: ["copy"], values: HANDLED }).filter(noSharedKeys),
      },
    );
    expect(report.failed).toBe(false);
  });
});
