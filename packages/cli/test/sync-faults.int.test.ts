/**
 * `sync` under the faults of SPEC §14 M4, with real processes: a pi process (pi 1.6.0's own
 * SessionManager, which takes no lock) appending to a session while syncs run loses nothing; a
 * sync killed (SIGKILL) at random moments leaves both sides valid sessions that hold at least
 * what they held, and a second sync completes; two syncs at once lose no entry.
 */

import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadText, systemEnv } from "@pi-sessions/core/internal";
import { tempDir } from "@pi-sessions/test-utils";
import { type DivergedCopies, divergedCopiesArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { binCommand, runBin } from "./helpers/run-bin.js";
import { entryIds, filesUnder, sessionPath, writeSession } from "./helpers/sync-roots.js";

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

/** Every `.jsonl` file under a root is a valid session; other files are temp or lock files. */
function expectValidRoot(root: string): void {
  for (const [rel, bytes] of filesUnder(root)) {
    if (!rel.endsWith(".jsonl")) {
      expect(rel).toMatch(/\.(tmp|lock)$/);
      continue;
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

/** Starts `pi-sessions sync A B`; resolves its exit code or signal. */
function startSync(args: readonly string[]) {
  const child = spawn(process.execPath, [...binCommand(), "sync", ...args], { stdio: "ignore" });
  const done = new Promise<number | string>((resolve) =>
    child.on("close", (code, signal) => resolve(code ?? String(signal))),
  );
  return { child, done };
}

const APPENDER = fileURLToPath(new URL("./helpers/pi-appender.ts", import.meta.url));

describe("sync under faults (SPEC §14 M4)", () => {
  it("a pi process appending while syncs run loses nothing", async () => {
    const roots = divergedRoots(1, 11);
    const rel = roots.originals[0]?.rel as string;
    const appender = spawn(
      process.execPath,
      [
        "--conditions=@pi-sessions/source",
        "--import",
        import.meta.resolve("tsx"),
        APPENDER,
        join(roots.rootA, rel),
        "80",
        "25",
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let printed = "";
    appender.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      printed += chunk;
    });
    const finished = new Promise((resolve) => appender.on("close", resolve));
    let syncs = 0;
    for (let running = true; running; ) {
      const r = await runBin(["sync", roots.rootA, roots.rootB]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      syncs++;
      running = await Promise.race([finished.then(() => false), Promise.resolve(true)]);
    }
    expect(syncs).toBeGreaterThan(1);
    expect((await runBin(["sync", roots.rootA, roots.rootB])).code).toBe(0);
    const appended = printed.trim().split("\n");
    expect(appended).toHaveLength(80);
    expectComplete(roots, appended);
    expectValidRoot(roots.rootA);
  });

  it("a sync killed at random moments leaves valid sessions; the next sync completes", async () => {
    const roots = divergedRoots(6, 5);
    // Moments across a run: before, during and after its reads and writes (start-up included).
    const delays = fc.sample(fc.integer({ min: 200, max: 4000 }), { numRuns: 6, seed: 9 });
    for (const delay of delays) {
      const run = startSync([roots.rootA, roots.rootB]);
      setTimeout(() => run.child.kill("SIGKILL"), delay);
      await run.done;
      for (const root of [roots.rootA, roots.rootB]) expectValidRoot(root);
      for (const { rel, a, b } of roots.originals) {
        expect(new Set(entryIds(readFileSync(join(roots.rootA, rel))))).toSatisfy(
          (ids: Set<string>) => [...a].every((id) => ids.has(id)),
        );
        expect(new Set(entryIds(readFileSync(join(roots.rootB, rel))))).toSatisfy(
          (ids: Set<string>) => [...b].every((id) => ids.has(id)),
        );
      }
    }
    const r = await runBin(["sync", roots.rootA, roots.rootB]);
    expect(r.code, r.stdout).toBe(0);
    expectComplete(roots);
    // A killed run's temp files never look like sessions to pi's listing.
    for (const dir of readdirSync(roots.rootA)) {
      for (const file of readdirSync(join(roots.rootA, dir))) {
        if (file.startsWith(".")) expect(file.endsWith(".jsonl")).toBe(false);
      }
    }
  });

  it("two syncs at once lose no entry", async () => {
    const roots = divergedRoots(4, 21);
    const [one, two] = [
      startSync([roots.rootA, roots.rootB]),
      startSync([roots.rootB, roots.rootA]),
    ];
    expect([await one.done, await two.done]).toEqual([0, 0]);
    expectComplete(roots);
  });
});
