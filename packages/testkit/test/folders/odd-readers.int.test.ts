/**
 * What the newer odd values and folder facts catch, each through `checkReader` with a reader
 * that has the bug a real tool had: deduplicating records by entry id alone
 * (`entry-id-collisions`), dropping a line whose count is beyond 2^53 (`big-integers`), and
 * writing message text into HTML unescaped (`html-text`). Shrunk folders never give two
 * sessions, or a fork and its parent, the same session id.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions, fcRuns } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkReader,
  type SessionFolder,
  sessionFolderArb,
  usageOracle,
  usageSourceOf,
} from "../../src/internal.js";

/** Every parsed line of every file under the root, in file order. */
function lines(root: string): Record<string, unknown>[] {
  return readdirSync(root).flatMap((dir) =>
    readdirSync(join(root, dir)).flatMap((name) =>
      readFileSync(join(root, dir, name), "utf8")
        .split("\n")
        .flatMap((line) => {
          try {
            return [JSON.parse(line.replace(/^\uFEFF/, "")) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    ),
  );
}

const countsOnce = (n: number, folder: SessionFolder) => n === usageOracle(folder).total.records;

/** The session ids of the files that are not copies of another file. */
const ownIds = (folder: SessionFolder) =>
  folder.files.filter((f) => f.kind !== "copy").map((f) => f.header?.id);

describe("odd values catch real readers' bugs", () => {
  it("entry-id-collisions: a reader that takes an entry id alone for a copy", async () => {
    const byIdAlone = (root: string) =>
      new Set(
        lines(root)
          .filter((e) => usageSourceOf(e))
          .map((e) => e.id),
      ).size;
    const options = {
      log: false,
      shrinkTimeLimitMs: Number.POSITIVE_INFINITY,
      folder: { derived: [], damaged: false, legacy: false },
    } as const;
    const clean = await checkReader(byIdAlone, countsOnce, { ...options, numRuns: 30 });
    expect(clean.failed).toBe(false);
    const report = await checkReader(byIdAlone, countsOnce, {
      ...options,
      numRuns: 200,
      folder: { ...options.folder, values: ["entry-id-collisions"], minSessions: 2 },
    });
    expect(report.failed).toBe(true);
    const folder = report.folder as SessionFolder;
    // A local minimum, which depends on the seed: the two sessions whose entries share an id,
    // sometimes with one more file the shrinker could not drop without losing the failure.
    expect(folder.files.length).toBeGreaterThanOrEqual(2);
    expect(folder.files.length).toBeLessThanOrEqual(3);
    expect(new Set(ownIds(folder)).size).toBeGreaterThanOrEqual(2);
  });

  it("big-integers: a reader that drops a line whose count is not a safe integer", async () => {
    const int53 = (root: string) =>
      lines(root).filter((e) => {
        const usage = usageSourceOf(e)?.usage;
        return (
          usage &&
          Object.values(usage).every(
            (v) => typeof v !== "number" || Number.isSafeInteger(v) || !Number.isInteger(v),
          )
        );
      }).length;
    const report = await checkReader(int53, countsOnce, {
      numRuns: 200,
      log: false,
      shrinkTimeLimitMs: Number.POSITIVE_INFINITY,
      folder: { derived: [], values: ["big-integers"] },
    });
    expect(report.failed).toBe(true);
    expect(report.folder?.values).toEqual(["big-integers"]);
  });

  it("html-text: a transcript that writes message text into HTML unescaped", async () => {
    const transcript = (root: string) =>
      lines(root)
        .map((e) => JSON.stringify((e.message as { content?: unknown } | undefined)?.content ?? ""))
        .map((text) => `<p>${text}</p>`)
        .join("\n");
    const report = await checkReader(transcript, (html) => !/<script>|<img /.test(html), {
      numRuns: 200,
      log: false,
      shrinkTimeLimitMs: Number.POSITIVE_INFINITY,
      folder: { values: ["html-text"] },
    });
    expect(report.failed).toBe(true);
    // Shrinking ends at a local minimum, which depends on the seed: one file whose one record
    // carries the markup, sometimes beside a file with no records the shrinker could not drop
    // without changing the rest (an empty session). Never two files with records.
    const files = (report.folder as SessionFolder).files;
    expect(files.length).toBeGreaterThanOrEqual(1);
    expect(files.length).toBeLessThanOrEqual(2);
    expect(files.filter((f) => f.records.length > 0).map((f) => f.records.length)).toEqual([1]);
  });
});

describe("session ids in a folder", () => {
  it(`sessions, forks and branched sessions never share a session id (${fcRuns(300)} runs)`, () => {
    fc.assert(
      fc.property(sessionFolderArb({ maxSessions: 4, maxDerived: 4 }), (folder) => {
        const ids = ownIds(folder);
        expect(new Set(ids).size).toBe(ids.length);
        for (const f of folder.files.filter((x) => x.kind === "copy")) {
          const source = folder.files.find(
            (x) => x.path.endsWith(f.path.split("/")[1] as string) && x !== f,
          );
          if (source) expect(f.header?.id).toBe(source.header?.id);
        }
      }),
      fcOptions(300),
    );
  });

  it("a shrunk failure keeps them distinct too", async () => {
    const report = await checkReader(
      (root) => readdirSync(root).length,
      (_n, folder) => folder.files.filter((f) => f.kind !== "copy").length < 3,
      {
        numRuns: 300,
        log: false,
        shrinkTimeLimitMs: Number.POSITIVE_INFINITY,
        folder: { minSessions: 1, maxSessions: 4 },
      },
    );
    expect(report.failed).toBe(true);
    const ids = ownIds(report.folder as SessionFolder);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });
});
