/**
 * `check` and `check --repair` through the real bin: every damage the testkit injects is
 * reported with its line; reading writes nothing; a repair never loses a line — every
 * unparseable line survives byte for byte and in order, the backup is the original bytes, and
 * the repaired file has no more problems than before and none that --repair could fix.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { damagedSessionArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CORPUS, copyCorpus, projectDir, snapshot } from "./helpers/fixtures.js";
import { unparseableLines } from "./helpers/lines.js";
import { runBin } from "./helpers/run-bin.js";

interface Problem {
  kind: string;
  line?: number;
  entryId?: string;
  fixable: boolean;
}
interface FileReport {
  path: string;
  ok: boolean;
  problems: Problem[];
  repair?: { backup: string; actions: { kind: string }[] };
  remaining?: Problem[];
}
interface CheckJson {
  checked: number;
  withProblems: number;
  files: FileReport[];
}

async function checkJson(args: readonly string[], codes: number | number[]): Promise<CheckJson> {
  const r = await runBin(["check", ...args, "--json"]);
  expect([codes].flat(), r.stderr).toContain(r.code);
  return JSON.parse(r.stdout);
}

const FIXABLE = new Set([
  "duplicate-id",
  "cycle",
  "missing-newline",
  "legacy-version",
  "migration",
]);

describe("check on the corpus", () => {
  it("passes the v3 file (exit 0) and flags the v1 files as legacy (exit 1)", async () => {
    const root = tempDir();
    const files = copyCorpus(root);
    const ok = await runBin(["check", files[CORPUS.branched] as string]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`ok  ${files[CORPUS.branched]}`);
    const all = await checkJson(["--dir", root], 1);
    expect(all.checked).toBe(3);
    const legacy = all.files.filter((f) => !f.ok);
    expect(legacy.map((f) => f.path).sort()).toEqual(
      [files[CORPUS.large], files[CORPUS.beforeCompaction]].sort(),
    );
    for (const f of legacy) {
      expect(f.problems.find((p) => p.kind === "legacy-version")?.line).toBe(1);
    }
  });
});

describe("check on damaged files", () => {
  const CHECK_PARAMS = fcOptions(5);
  it(`reports every injected damage with its line, writes nothing, and --repair loses nothing (numRuns ${CHECK_PARAMS.numRuns}, 12 files each)`, async () => {
    const batch = fc.array(damagedSessionArb({ maxEntries: 20, maxDamage: 4 }), {
      minLength: 12,
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(batch, async (sessions) => {
        const root = tempDir();
        const dir = projectDir(root, "/home/dev/damaged");
        const paths = sessions.map((s, i) => {
          const path = join(dir, `d${i}.jsonl`);
          writeFileSync(path, s.jsonl);
          return path;
        });
        const originals = paths.map((p) => readFileSync(p));

        // 1. Reading: every expected diagnostic, exit 1 if anything is wrong, no writes.
        const before = snapshot(root);
        const anyDamage = sessions.some((s) => s.expected.length > 0 || !s.jsonl.endsWith("\n"));
        const checked = await checkJson([dir], anyDamage ? 1 : 0);
        expect(checked.checked).toBe(paths.length);
        expect(snapshot(root)).toEqual(before);
        const byPath = new Map(checked.files.map((f) => [f.path, f]));
        sessions.forEach((s, i) => {
          const report = byPath.get(paths[i] as string) as FileReport;
          const core = report.problems.filter((p) => p.kind !== "missing-newline");
          const key = (p: { kind: string; line?: number }) => `${p.line}:${p.kind}`;
          expect(core.map(key).sort()).toEqual(s.expected.map(key).sort());
          const newline = report.problems.some((p) => p.kind === "missing-newline");
          expect(newline).toBe(s.jsonl.length > 0 && !s.jsonl.endsWith("\n"));
        });

        // 2. Repair: lines kept, backups exact, nothing fixable left, no new problems.
        const repair = await checkJson(["--repair", dir], [0, 1]);
        const repairedBy = new Map(repair.files.map((f) => [f.path, f]));
        paths.forEach((path, i) => {
          const original = originals[i] as Buffer;
          const report = repairedBy.get(path) as FileReport;
          const now = readFileSync(path);
          expect(unparseableLines(now)).toEqual(unparseableLines(original));
          if (report.repair === undefined) {
            expect(now.equals(original)).toBe(true);
            expect(report.problems.some((p) => p.fixable)).toBe(false);
            return;
          }
          expect(readFileSync(report.repair.backup).equals(original)).toBe(true);
          expect(now.at(-1)).toBe(0x0a);
        });
        const after = await checkJson([dir], [0, 1]);
        const afterBy = new Map(after.files.map((f) => [f.path, f]));
        for (const path of paths) {
          const was = (byPath.get(path) as FileReport).problems;
          const left = (afterBy.get(path) as FileReport).problems;
          expect(left.length).toBeLessThanOrEqual(was.length);
          expect(left.filter((p) => FIXABLE.has(p.kind))).toEqual([]);
          // What is left was there before: a repair adds no problem of a new kind.
          const kindsBefore = new Set(was.map((p) => p.kind));
          for (const p of left) expect(kindsBefore.has(p.kind)).toBe(true);
        }
      }),
      CHECK_PARAMS,
    );
  });
});

describe("repair keeps bytes that are not even UTF-8", () => {
  it("copies an invalid-UTF-8 line byte for byte while fixing a duplicate id", async () => {
    const root = tempDir();
    const dir = projectDir(root, "/home/dev/bytes");
    const path = join(dir, "s.jsonl");
    const header =
      '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/dev/bytes"}';
    const a =
      '{"type":"custom","customType":"x","id":"aaaa0001","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z"}';
    const b =
      '{"type":"custom","customType":"y","id":"aaaa0001","parentId":null,"timestamp":"2026-01-01T00:00:02.000Z"}';
    const junk = Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0xc3, 0x28, 0x0d]); // `{`, invalid bytes, `\r`
    const original = Buffer.concat([
      Buffer.from(`${header}\n${a}\n`),
      junk,
      Buffer.from(`\n${b}\n`),
    ]);
    writeFileSync(path, original);
    const report = (await checkJson(["--repair", path], 1)).files[0] as FileReport;
    expect(report.problems.map((p) => p.kind).sort()).toEqual(["duplicate-id", "invalid-json"]);
    expect(report.remaining?.map((p) => p.kind)).toEqual(["invalid-json"]);
    const now = readFileSync(path);
    const lines = [] as Buffer[];
    for (let start = 0; start < now.length; ) {
      const end = now.indexOf(0x0a, start);
      lines.push(now.subarray(start, end));
      start = end + 1;
    }
    expect(lines[2]?.equals(junk)).toBe(true);
    expect(lines[3]?.toString()).toBe(b);
    const renamed = JSON.parse(lines[1]?.toString() as string);
    expect(renamed.id).not.toBe("aaaa0001");
    expect({ ...renamed, id: "aaaa0001" }).toEqual(JSON.parse(a));
    expect(readFileSync(report.repair?.backup as string).equals(original)).toBe(true);
  });
});

describe("repair respects a live writer", () => {
  it("refuses with exit 2 while another process holds the session's lock", async () => {
    const root = tempDir();
    const dir = projectDir(root, "/home/dev/locked");
    const path = join(dir, "s.jsonl");
    const original =
      '{"type":"session","version":3,"id":"s2","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/home/dev/locked"}\n{"type":"custom","customType":"x","id":"b1","parentId":"b1","timestamp":"2026-01-01T00:00:01.000Z"}';
    writeFileSync(path, original);
    // This test process is alive, so its lock is live (SPEC W7).
    const holder = {
      pid: process.pid,
      host: hostname(),
      acquiredAt: new Date().toISOString(),
      token: "t0",
    };
    writeFileSync(`${path}.lock`, `${JSON.stringify(holder)}\n`);
    const r = await runBin(["check", "--repair", path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is in use");
    expect(readFileSync(path, "utf8")).toBe(original);
    expect(existsSync(`${path}.lock`)).toBe(true);
  });
});

describe("files that are not sessions", () => {
  it("count as a problem in a directory check, and are never rewritten", async () => {
    const root = tempDir();
    const dir = projectDir(root, "/home/dev/odd");
    const path = join(dir, "notes.jsonl");
    writeFileSync(path, "just some text\n");
    const report = await checkJson(["--repair", "--dir", root], 1);
    expect(report.files[0]?.problems.map((p) => p.kind)).toEqual(["not-a-session"]);
    expect(readFileSync(path, "utf8")).toBe("just some text\n");
  });
});
