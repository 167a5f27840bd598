import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { defaultSessionInfoCache, listAllSessions } from "@pi-sessions/core/internal";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";
import { applyStep, DIRS, fileTextArb, stepArb, writeFolder } from "./folder-arbitraries.js";

const RUNS = 60;
/** Fewer: each round of this one waits for the files to settle. */
const SETTLED_RUNS = 15;

/**
 * `SessionManager`'s listings as they read the files now: core's in-memory info cache trusts a
 * file whose (size, mtime, inode) is unchanged, which a same-stamp rewrite fools; cleared, each
 * call reads every file.
 */
const direct = {
  listAll: (dir?: string) => {
    defaultSessionInfoCache.clear();
    return dir === undefined ? SessionManager.listAll() : SessionManager.listAll(dir);
  },
  list: (cwd: string, dir: string) => {
    defaultSessionInfoCache.clear();
    return SessionManager.list(cwd, dir);
  },
};

/** Counts over every run of a property, by test. */
const totals: Record<string, Record<string, number>> = {};

/**
 * The index answers every listing exactly as core's direct read of the files, on random
 * folders (valid, damaged, legacy, headerless, empty files) and after each of a random run of
 * changes (growth, torn and completed lines, truncation, replacement, a rewrite with the same
 * size and mtime, deletion, new files): `listAll()`, `listAll(dir)`, `list(cwd, dir)` and the
 * listing with shapes the CLI uses. With `pauseMs`, each round of listings starts that long
 * after the last change, so rows settle (`settleMs`) and answer by stat alone.
 */
function listingsMatch(name: string, runs: number, settleMs?: number, pauseMs = 0) {
  const counts: Record<string, number> = {};
  totals[name] = counts;
  return fc.assert(
    fc.asyncProperty(
      fc.array(fileTextArb, { minLength: 1, maxLength: 6 }),
      fc.array(stepArb, { minLength: 1, maxLength: 8 }),
      async (texts, steps) => {
        const agent = tempDir();
        process.env.PI_CODING_AGENT_DIR = agent;
        const root = join(agent, "sessions");
        let paths = writeFolder(root, texts);
        const file = join(tempDir(), "index.sqlite");
        const index = openSessionIndex({ file, ...(settleMs === undefined ? {} : { settleMs }) });
        try {
          for (let n = 0; n <= steps.length; n++) {
            if (pauseMs > 0) await new Promise((done) => setTimeout(done, pauseMs));
            expect(await index.listAll()).toEqual(await direct.listAll());
            const dir = join(root, DIRS[n % DIRS.length] as string);
            expect(await index.listAll(dir)).toEqual(await direct.listAll(dir));
            for (const info of await direct.listAll(dir)) {
              expect(await index.list(info.cwd || "/", dir)).toEqual(
                await direct.list(info.cwd || "/", dir),
              );
            }
            expect(await index.listProjects(root, { withShape: true })).toEqual(
              await listAllSessions(root, { cache: null, withShape: true }),
            );
            const step = steps[n];
            if (step !== undefined) paths = applyStep(root, paths, step, texts.length + n);
          }
        } finally {
          for (const [kind, n] of Object.entries(index.counts))
            counts[kind] = (counts[kind] ?? 0) + n;
          counts.statOnly = (counts.statOnly ?? 0) + index.statOnly;
          index.close();
        }
      },
    ),
    fcOptions(runs),
  );
}

test("index listings equal core's direct listings through a run of folder changes", async () => {
  // A margin no run lasts: every row is checked by hash.
  await listingsMatch("hash", RUNS, 600_000);
  const counts = totals.hash ?? {};
  // The runs went through every path of a sync, not only full reads.
  expect(counts.unchanged).toBeGreaterThan(0);
  expect(counts["caught-up"]).toBeGreaterThan(0);
  expect(counts.indexed).toBeGreaterThan(0);
  // Every file was changed moments ago: none is trusted by its stat alone.
  expect(counts.statOnly).toBe(0);
});

test("the same with the files settled before each round: rows answer by stat alone", async () => {
  // Far above the filesystem's timestamp granule (the kernel's tick, a few ms on Linux).
  await listingsMatch("settled", SETTLED_RUNS, 25, 60);
  const counts = totals.settled ?? {};
  expect(counts.statOnly).toBeGreaterThan(0);
  expect(counts["caught-up"]).toBeGreaterThan(0);
  expect(counts.indexed).toBeGreaterThan(0);
});
