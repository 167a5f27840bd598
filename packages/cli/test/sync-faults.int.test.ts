/**
 * `sync` under the faults of SPEC §14 M4, with real processes: a pi process (pi 1.6.0's own
 * SessionManager, which takes no lock) appending to a session while syncs run loses nothing; a
 * sync killed (SIGKILL) at random moments leaves both sides valid sessions that hold at least
 * what they held, and a second sync completes; two syncs at once lose no entry.
 */

import { spawn } from "node:child_process";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadText, systemEnv } from "@pi-sessions/core/internal";
import { tempDir } from "@pi-sessions/test-utils";
import { type DivergedCopies, divergedCopiesArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { noProgress, syncFolders } from "../src/index.js";
import { runBin } from "./helpers/run-bin.js";
import { entryIds, filesUnder, sessionPath, writeSession } from "./helpers/sync-roots.js";

const SESSIONS = 12;
const KILLS = 8;

/** Sessions diverged on two machines: each written under its root. */
function divergedRoots(count: number, seed: number) {
  const sessions = fc.sample(divergedCopiesArb({ shape: "any", collisions: false, maxNews: 12 }), {
    numRuns: count,
    seed,
  }) as DivergedCopies[];
  const [rootA, rootB] = [tempDir(), tempDir()];
  const originals = sessions.map(({ header, copies: [a, b] }) => {
    const rel = sessionPath(header);
    writeSession(rootA, rel, a?.jsonl ?? "");
    writeSession(rootB, rel, b?.jsonl ?? "");
    return {
      rel,
      a: new Set(entryIds(Buffer.from(a?.jsonl ?? ""))),
      b: new Set(entryIds(Buffer.from(b?.jsonl ?? ""))),
    };
  });
  return { rootA, rootB, originals };
}

/**
 * Every `.jsonl` file under a root is a valid session; other files are temp or lock files, or
 * a replaced file's old inode (`<session>.jsonl.<inode>.replaced`, left by a sync killed between
 * its link and its rename or while it waited for writers): a valid session too, merged by the
 * next sync.
 */
function expectValidRoot(root: string): void {
  for (const [rel, bytes] of filesUnder(root)) {
    if (!rel.endsWith(".jsonl")) {
      expect(rel).toMatch(/\.(tmp|lock|jsonl\.\d+\.replaced)$/);
      if (!rel.endsWith(".replaced")) continue;
    }
    expect(() => loadText(bytes.toString(), systemEnv, rel), rel).not.toThrow();
  }
}

/** Both roots identical, and each session holds every entry either side started with. */
function expectComplete(roots: ReturnType<typeof divergedRoots>, extra: readonly string[] = []) {
  for (const { rel, a, b } of roots.originals) {
    const fileA = readFileSync(join(roots.rootA, rel));
    expect(fileA.equals(readFileSync(join(roots.rootB, rel))), rel).toBe(true);
    const ids = new Set(entryIds(fileA));
    for (const id of [...a, ...b]) expect(ids.has(id), `${rel}: ${id}`).toBe(true);
  }
  const all = new Set(
    roots.originals.flatMap(({ rel }) => entryIds(readFileSync(join(roots.rootA, rel)))),
  );
  for (const id of extra) expect(all.has(id), id).toBe(true);
}

const TSX = ["--conditions=@pi-sessions/source", "--import", import.meta.resolve("tsx")];
const helper = (name: string) => fileURLToPath(new URL(`./helpers/${name}`, import.meta.url));

/** A sync child (`helpers/sync-child.ts`), started and loaded; `go()` starts its sync. */
async function syncChild(rootA: string, rootB: string) {
  const child = spawn(process.execPath, [...TSX, helper("sync-child.ts"), rootA, rootB], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let carry = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (carry + chunk).split("\n");
    carry = parts.pop() ?? "";
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  const done = new Promise<number | string>((resolve) =>
    child.on("close", (code, signal) => resolve(code ?? String(signal))),
  );
  /** Resolves once the child printed `count` lines (or ended). */
  const printed = async (count: number) => {
    let ended = false;
    void done.then(() => {
      ended = true;
      for (const wake of waiters.splice(0)) wake();
    });
    while (lines.length < count && !ended) await new Promise<void>((wake) => waiters.push(wake));
  };
  await printed(1);
  return { child, done, printed, go: () => child.stdin.write("go\n") };
}

describe("sync under faults (SPEC §14 M4)", () => {
  it("a pi process appending while syncs replace its file loses nothing", async () => {
    const roots = divergedRoots(1, 11);
    const rel = roots.originals[0]?.rel as string;
    const appender = spawn(
      process.execPath,
      [...TSX, helper("pi-appender.ts"), join(roots.rootA, rel), "150", "10"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let printed = "";
    appender.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      printed += chunk;
    });
    let running = true;
    appender.on("close", () => {
      running = false;
    });
    // The other machine's clock runs 5 s behind: each of its entries sorts before pi's latest,
    // so the merged file is not pi's file plus lines, and pi's file is replaced, again and again.
    const other: string[] = [];
    let replaced = 0;
    let during = 0;
    while (running) {
      const pathB = join(roots.rootB, rel);
      const parentId = entryIds(readFileSync(pathB)).at(-1) ?? null;
      const id = `b${other.length.toString(16).padStart(7, "0")}`;
      const timestamp = new Date(Date.now() - 5000).toISOString();
      appendFileSync(
        pathB,
        `${JSON.stringify({ type: "custom", customType: "other-machine", id, parentId, timestamp })}\n`,
      );
      other.push(id);
      const [r] = await syncFolders(
        roots.rootA,
        roots.rootB,
        { dryRun: false, lockWaitMs: 5000 },
        noProgress,
      );
      expect(r?.status, r?.message).toBe("synced");
      if (r?.a === "replaced" && printed.length > 0 && running) during++;
      if (r?.a === "replaced") replaced++;
      // A sync that finds no lock to wait for never leaves the microtask queue: let the
      // child's output and exit events in.
      await new Promise((next) => setImmediate(next));
    }
    expect(during).toBeGreaterThan(2);
    expect(replaced).toBeGreaterThanOrEqual(during);
    expect((await runBin(["sync", roots.rootA, roots.rootB])).code).toBe(0);
    const appended = printed.trim().split("\n");
    expect(appended).toHaveLength(150);
    expectComplete(roots, [...appended, ...other]);
    expectValidRoot(roots.rootA);
  });

  it(`a sync killed at random moments leaves valid sessions; the next sync completes (${KILLS} kills)`, async () => {
    const roots = divergedRoots(SESSIONS, 5);
    // A moment in the middle of the work: after a random number of sessions, plus up to 20 ms.
    const moments = fc.sample(fc.tuple(fc.nat(SESSIONS - 1), fc.nat(20)), {
      numRuns: KILLS,
      seed: 9,
    });
    for (const [after, ms] of moments) {
      const run = await syncChild(roots.rootA, roots.rootB);
      run.go();
      await run.printed(1 + after);
      await new Promise((wait) => setTimeout(wait, ms));
      run.child.kill("SIGKILL");
      await run.done;
      for (const root of [roots.rootA, roots.rootB]) expectValidRoot(root);
      for (const { rel, a, b } of roots.originals) {
        const idsA = new Set(entryIds(readFileSync(join(roots.rootA, rel))));
        const idsB = new Set(entryIds(readFileSync(join(roots.rootB, rel))));
        for (const id of a) expect(idsA.has(id), `${rel}: ${id}`).toBe(true);
        for (const id of b) expect(idsB.has(id), `${rel}: ${id}`).toBe(true);
      }
    }
    const r = await runBin(["sync", roots.rootA, roots.rootB]);
    expect(r.code, r.stdout).toBe(0);
    expectComplete(roots);
    // The old files killed runs left are merged and gone (nobody writes them).
    for (const root of [roots.rootA, roots.rootB]) {
      expect([...filesUnder(root).keys()].filter((f) => f.endsWith(".replaced"))).toEqual([]);
    }
    // A killed run's temp files never look like sessions to pi's listing.
    for (const dir of readdirSync(roots.rootA)) {
      for (const file of readdirSync(join(roots.rootA, dir))) {
        if (file.startsWith(".")) expect(file.endsWith(".jsonl")).toBe(false);
      }
    }
  });

  it("two syncs at once lose no entry", async () => {
    const roots = divergedRoots(SESSIONS, 21);
    const one = await syncChild(roots.rootA, roots.rootB);
    const two = await syncChild(roots.rootB, roots.rootA);
    one.go();
    two.go();
    expect([await one.done, await two.done]).toEqual([0, 0]);
    expectComplete(roots);
  });
});
