/**
 * `checkReader` itself: it finds a reader's bug, shrinks the folder, prints every file and line
 * with the seed and path, and the seed and path replay the same folder; a command-line reader
 * gets the root as its argument and its stdout parsed; a reader that fails to run is reported,
 * not thrown.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcRuns, tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { checkReader, type SessionFolder, usageOracle } from "../../src/internal.js";
import { sumEverything } from "./naive-readers.js";

const sameRecordCount = (records: number, folder: SessionFolder) => {
  expect(records).toBe(usageOracle(folder).total.records);
  return true;
};

describe("checkReader", () => {
  it("finds a double count, shrinks it to a fork or copy of one record, prints and replays it", async () => {
    const printed: string[] = [];
    // The test asserts the minimal folder: shrinking finishes however slow the machine is.
    const options = {
      numRuns: fcRuns(200),
      log: (t: string) => printed.push(t),
      shrinkTimeLimitMs: Number.POSITIVE_INFINITY,
    } as const;
    const report = await checkReader(sumEverything, sameRecordCount, options);
    expect(report.failed).toBe(true);
    const folder = report.folder as SessionFolder;
    // Shrinking ends at a local minimum, which depends on the seed: usually the source and its
    // copy (2 files), sometimes with one more file the shrinker could not drop without losing
    // the failure. Either way a fork or copy is in it, and the folder is a few files.
    expect(folder.files.length).toBeGreaterThanOrEqual(2);
    expect(folder.files.length).toBeLessThanOrEqual(3);
    expect(folder.files.filter((f) => f.source !== undefined).length).toBeGreaterThanOrEqual(1);
    expect(printed).toEqual([report.text]);
    for (const file of folder.files) expect(report.text).toContain(file.path);
    expect(report.text).toContain(`seed: ${report.seed}`);
    expect(report.text).toMatch(/\n\s+2 \{"type":/);
    const replay = await checkReader(sumEverything, sameRecordCount, {
      numRuns: fcRuns(200),
      seed: report.seed,
      path: report.path,
      log: false,
    });
    expect(replay.failed).toBe(true);
    expect(replay.folder).toEqual(report.folder);
  });

  it("runs a command line with the root as its argument and parses its stdout", async () => {
    const dir = tempDir();
    const script = join(dir, "count-files.mjs");
    writeFileSync(
      script,
      `import { readdirSync } from "node:fs";
const root = process.argv[process.argv.length - 1];
const files = readdirSync(root).flatMap((d) => readdirSync(root + "/" + d));
console.log(JSON.stringify({ files: files.length }));
`,
    );
    const report = await checkReader(
      { command: process.execPath, args: [script, "{root}"], parse: (out) => JSON.parse(out) },
      (out: { files: number }, folder) => out.files === folder.files.length,
      { numRuns: 15, log: false },
    );
    expect(report.text).toBe(`checkReader: 15 folders passed (seed ${report.seed})`);
    expect(report.failed).toBe(false);
  });

  it("reports a command that fails and a property that returns false, without throwing", async () => {
    const failing = await checkReader(
      { command: process.execPath, args: ["-e", "process.exit(3)"], parse: () => 0 },
      () => true,
      { numRuns: 3, log: false },
    );
    expect(failing.failed).toBe(true);
    expect(failing.error).toMatch(/failed/);
    const falsy = await checkReader(
      (root) => root,
      () => false,
      { numRuns: 3, log: false },
    );
    expect(falsy.failed).toBe(true);
    expect(falsy.folder?.files.length).toBe(1);
  });

  it("shows the reader's answer when the property returned false, cut past maxLineLength", async () => {
    const countFiles = (root: string) =>
      readdirSync(root).flatMap((dir) => readdirSync(join(root, dir))).length;
    // Off by one on purpose: the answer is right, the property wrong; the report shows both
    // sides of the comparison — the answer, and the folder whose files it counted.
    const report = await checkReader(countFiles, (n, folder) => n === folder.files.length + 1, {
      numRuns: 5,
      log: false,
    });
    const files = report.folder?.files.length;
    expect(report.error).toBe(
      `the property returned false for the reader's answer: ${files} (the folder below is what it was judged against)`,
    );
    expect(report.text).toContain(report.error);
    const long = await checkReader(
      () => ({ names: "x".repeat(100) }),
      () => false,
      { numRuns: 1, shrinkTimeLimitMs: 0, maxLineLength: 20, log: false },
    );
    expect(long.error).toBe(
      `the property returned false for the reader's answer: {"names":"xxxxxxxxxx… (112 characters) (the folder below is what it was judged against)`,
    );
  });
});
