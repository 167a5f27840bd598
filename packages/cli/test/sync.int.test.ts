/**
 * `pi-sessions sync <dirA> <dirB>` through the real bin: both roots end up holding, for every
 * session, the merge of both copies (core's `mergeSessions`), byte for byte the same on both
 * sides; sessions on one side are copied; a second sync changes nothing; `--dry-run` writes
 * nothing; a session another writer holds is skipped with one line.
 */

import { readFileSync, symlinkSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { mergeSessions } from "@pi-sessions/core";
import { acquireLock } from "@pi-sessions/core/internal";
import { fcOptions, fcRuns, tempDir } from "@pi-sessions/test-utils";
import { divergedCopiesArb, sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runBin } from "./helpers/run-bin.js";
import { filesUnder, sessionPath, writeSession } from "./helpers/sync-roots.js";

interface SyncJson {
  dryRun: boolean;
  sessions: { session: string; status: string; a?: string; b?: string; message?: string }[];
}

async function syncJson(args: readonly string[], code = 0): Promise<SyncJson> {
  const r = await runBin(["sync", ...args, "--json"]);
  expect(r.code, r.stderr).toBe(code);
  return JSON.parse(r.stdout);
}

describe("sync between two folders", () => {
  it(`both roots hold the merge of both copies, diverged by random appends (numRuns ${fcRuns(12)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        divergedCopiesArb({ shape: "any", maxNews: 8 }),
        sessionLogArb({ maxEntries: 5 }),
        async ({ header, copies: [a, b] }, only) => {
          const [rootA, rootB] = [tempDir(), tempDir()];
          const rel = sessionPath(header);
          writeSession(rootA, rel, a?.jsonl ?? "");
          writeSession(rootB, rel, b?.jsonl ?? "");
          // A session that only B has (another cwd), copied to A.
          const onlyRel = sessionPath({ ...only.header, cwd: "/elsewhere" });
          writeSession(rootB, onlyRel, only.jsonl);
          const expected = mergeSessions(a?.jsonl ?? "", b?.jsonl ?? "").bytes;
          const out = await syncJson([rootA, rootB]);
          expect(out.sessions.map((s) => s.status)).not.toContain("failed");
          const filesA = filesUnder(rootA);
          const filesB = filesUnder(rootB);
          expect([...filesA.keys()].sort()).toEqual([onlyRel, rel].sort());
          expect(filesA).toEqual(filesB);
          expect(filesA.get(rel)?.equals(expected)).toBe(true);
          expect(filesA.get(onlyRel)?.toString()).toBe(only.jsonl);
          // Converged: a second sync has nothing to do.
          const again = await syncJson([rootA, rootB]);
          expect(again.sessions.map((s) => s.status)).toEqual(["up-to-date", "up-to-date"]);
        },
      ),
      fcOptions(12),
    );
  });

  it("--dry-run says what would change and writes nothing: no file, lock or temp file", async () => {
    const [rootA, rootB] = [tempDir(), tempDir()];
    const [d] = fc.sample(divergedCopiesArb({ collisions: false, maxNews: 4 }), {
      numRuns: 1,
      seed: 7,
    });
    const { header, copies } = d as NonNullable<typeof d>;
    const rel = sessionPath(header);
    writeSession(rootA, rel, `${copies[0]?.jsonl}`);
    writeSession(
      rootB,
      rel,
      `${copies[1]?.jsonl}${JSON.stringify({ type: "custom", customType: "x", id: "ffff0001", parentId: null, timestamp: "2026-01-01T00:00:00.000Z" })}\n`,
    );
    const before = [filesUnder(rootA), filesUnder(rootB)];
    const out = await syncJson([rootA, rootB, "--dry-run"]);
    expect(out).toMatchObject({ dryRun: true, sessions: [{ session: rel, status: "would-sync" }] });
    expect([filesUnder(rootA), filesUnder(rootB)]).toEqual(before);
    const text = await runBin(["sync", rootA, rootB, "--dry-run"]);
    expect(text.stdout).toContain("dry run: nothing was written");
  });

  it("skips a session another live writer holds, with one line and exit 1", async () => {
    const [rootA, rootB] = [tempDir(), tempDir()];
    const [log] = fc.sample(sessionLogArb({ minEntries: 1 }), { numRuns: 1, seed: 3 });
    const rel = sessionPath((log as NonNullable<typeof log>).header);
    const path = writeSession(rootA, rel, (log as NonNullable<typeof log>).jsonl);
    const lock = acquireLock(path); // this test process: a live writer the sync must not disturb
    try {
      const r = await runBin(["sync", rootA, rootB, "--wait", "0"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(
        new RegExp(
          `^skipped  ${rel.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: Session file is locked by another writer \\(pid ${process.pid}`,
          "m",
        ),
      );
      expect(filesUnder(rootB).size).toBe(0);
    } finally {
      lock.release();
    }
    await syncJson([rootA, rootB]);
    expect(readFileSync(join(rootB, rel)).toString()).toBe((log as NonNullable<typeof log>).jsonl);
  });

  it("refuses one folder given twice (or under two names, or one inside the other) at once, without locking or waiting", async () => {
    const root = tempDir();
    const [d] = fc.sample(sessionLogArb({ maxEntries: 3 }), { numRuns: 1, seed: 3 });
    const log = d as NonNullable<typeof d>;
    const rel = sessionPath(log.header);
    writeSession(root, rel, log.jsonl);
    const alias = join(tempDir(), "alias");
    symlinkSync(root, alias);
    const project = join(root, rel.split("/")[0] as string);
    for (const [args, says] of [
      [[root, root], "are the same folder"],
      [[root, alias], "are the same folder"],
      [[root, project], "lies inside"],
      [[project, root], "lies inside"],
    ] as const) {
      // --wait 30: were the session locked against itself, the run would wait 30 s before
      // skipping it; the refusal comes first, so no session is even read.
      const r = await runBin(["sync", ...args, "--wait", "30"]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(says);
    }
    expect(filesUnder(root).get(rel)?.toString()).toBe(log.jsonl);
    expect([...filesUnder(root).keys()]).toEqual([rel]);
  });

  it("refuses a bad call with one line and exit 2", async () => {
    const root = tempDir();
    for (const args of [
      [root],
      [root, root, "--to", "postgres://x"],
      [root, join(root, "missing")],
    ]) {
      const r = await runBin(["sync", ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("a --to server that cannot be reached: one line naming it, password left out (exit 2)", async () => {
    const root = tempDir();
    // A port nothing listens on: taken from the system, then let go.
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as AddressInfo;
    await new Promise((done) => server.close(done));
    const to = `postgres://me:s3cret@127.0.0.1:${port}/db?password=s3cret`;
    const r = await runBin(["sync", root, "--to", to]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `pi-sessions: cannot reach the PostgreSQL server of --to postgres://me:***@127.0.0.1:${port}/db?password=***: connect ECONNREFUSED 127.0.0.1:${port}\n`,
    );
  });

  it("refuses a --to that is not a PostgreSQL URL by saying so, before connecting anywhere", async () => {
    const root = tempDir();
    for (const to of ["not a url", "http://127.0.0.1:1/x", "server.example:5432"]) {
      const r = await runBin(["sync", root, "--to", to]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `pi-sessions: --to ${to}: not a PostgreSQL URL (postgres://user@host:port/database)\n`,
      );
    }
  });
});
