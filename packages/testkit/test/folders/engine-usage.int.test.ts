/**
 * Our own usage totals (`@pi-sessions/plugins`: `computeSessionsUsageTotals` over a directory,
 * `computeUsageTotals` per file) agree with the testkit's oracle on generated folders with every
 * odd value planted: `checkReader` reports no failure. The reader is what `pi-sessions usage
 * --all` does: every `*.jsonl` under the root, loaded with core's `loadEntriesFromFile` and
 * migrated (v1 records get ids).
 *
 * Runs: `FC_RUNS` (default 1000); replay with `FC_SEED` / `FC_PATH`.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type FileEntry, loadEntriesFromFile, migrateSessionEntries } from "@pi-sessions/core";
import {
  computeSessionsUsageTotals,
  computeUsageTotals,
  type UsageSums,
} from "@pi-sessions/plugins";
import { fcOptions, fcRuns } from "@pi-sessions/test-utils";
import { expect, it } from "vitest";
import {
  checkReader,
  diffSums,
  HOSTILE_VALUE_NAMES,
  type OracleSums,
  usageOracle,
} from "../../src/internal.js";

const sums = (s: UsageSums): OracleSums => ({ ...s, cost: s.cost.total });

/** Every session file under the root, as `<cwd folder>/<name>`. */
function sessionFiles(root: string): string[] {
  return readdirSync(root).flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => `${dir}/${name}`),
  );
}

function ourUsage(root: string) {
  const inputs = sessionFiles(root).map((path) => {
    const entries: FileEntry[] = loadEntriesFromFile(join(root, path));
    migrateSessionEntries(entries);
    return { path, entries };
  });
  const all = computeSessionsUsageTotals(inputs);
  const branch = new Map(inputs.map((i) => [i.path, computeUsageTotals(i.entries).branch]));
  return { all, branch };
}

it(`our usage totals never fail checkReader with every odd value (${fcRuns(1000)} folders)`, async () => {
  const report = await checkReader(
    ourUsage,
    ({ all, branch }, folder) => {
      const oracle = usageOracle(folder);
      const problems: string[] = diffSums(oracle.total, sums(all.total)).map((d) => `total ${d}`);
      expect(Object.keys(all.total.byModel).sort()).toEqual(Object.keys(oracle.byModel).sort());
      for (const [key, expected] of Object.entries(oracle.byModel)) {
        const got = all.total.byModel[key] as UsageSums;
        problems.push(...diffSums(expected, sums(got)).map((d) => `model ${key} ${d}`));
      }
      for (const s of all.sessions) {
        const expected = oracle.files[s.path as string];
        if (!expected) throw new Error(`no oracle for ${s.path}`);
        problems.push(...diffSums(expected.own, sums(s.own)).map((d) => `${s.path} own ${d}`));
        problems.push(
          ...diffSums(expected.unique, sums(s.unique)).map((d) => `${s.path} unique ${d}`),
        );
        if (s.copiedRecords !== expected.copies) {
          problems.push(`${s.path} copies: expected ${expected.copies}, got ${s.copiedRecords}`);
        }
        const b = branch.get(s.path as string) as UsageSums;
        problems.push(...diffSums(expected.branch, sums(b)).map((d) => `${s.path} branch ${d}`));
      }
      expect(all.sessions.length).toBe(folder.files.length);
      if (problems.length > 0) throw new Error(problems.join("\n"));
      return true;
    },
    {
      ...fcOptions(1000),
      folder: { values: HOSTILE_VALUE_NAMES, longLineLength: 20_000 },
    },
  );
  expect(report.text).toMatch(/folders passed/);
  expect(report.failed).toBe(false);
  expect(report.numRuns).toBe(fcRuns(1000));
});
