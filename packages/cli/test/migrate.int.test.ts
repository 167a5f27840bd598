/**
 * `migrate` through the real bin: `--dry-run` writes nothing; a migration keeps every
 * unparseable line verbatim and in order, keeps a byte-exact backup, gives v2 files exactly
 * the records the testkit expects (ids and parents kept), and leaves files the reference
 * opens as current v3 sessions with the same entries.
 */

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { legacySessionArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CORPUS, copyCorpus, projectDir, snapshot } from "./helpers/fixtures.js";
import { unparseableLines } from "./helpers/lines.js";
import { openWithReference } from "./helpers/reference.js";
import { runBin } from "./helpers/run-bin.js";

interface MigrateJson {
  dryRun: boolean;
  files: { path: string; status: string; fromVersion?: number; backup?: string }[];
}

async function migrateJson(args: readonly string[]): Promise<MigrateJson> {
  const r = await runBin(["migrate", ...args, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** The records of a file (JSON objects only), in order. */
function records(bytes: Buffer): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of bytes.toString("utf8").split("\n")) {
    try {
      const value = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) out.push(value);
    } catch {
      // not a record
    }
  }
  return out;
}

describe("migrate --dry-run", () => {
  it("reports what it would do and writes nothing: no file, backup or lock", async () => {
    const root = tempDir();
    copyCorpus(root);
    const before = snapshot(root);
    const r = await runBin(["migrate", root, "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^would migrate {2}/gm)).toHaveLength(2);
    expect(r.stdout).toContain("3 file(s): 2 to migrate, 1 already current, 0 skipped");
    expect(r.stdout).toContain("dry run: nothing was written");
    expect(snapshot(root)).toEqual(before);
  });
});

describe("migrate on the corpus", () => {
  it("turns the v1 files into v3 files the reference reads as they are, with backups", async () => {
    const root = tempDir();
    const files = copyCorpus(root);
    const originals = new Map(Object.values(files).map((p) => [p, readFileSync(p)]));
    const result = await migrateJson([root]);
    const byPath = new Map(result.files.map((f) => [f.path, f]));
    expect(byPath.get(files[CORPUS.branched] as string)?.status).toBe("current");
    for (const name of [CORPUS.large, CORPUS.beforeCompaction]) {
      const path = files[name] as string;
      const entry = byPath.get(path);
      expect(entry?.status).toBe("migrated");
      expect(entry?.fromVersion).toBe(1);
      expect(readFileSync(entry?.backup as string).equals(originals.get(path) as Buffer)).toBe(
        true,
      );
      const now = readFileSync(path);
      const recs = records(now);
      expect(recs[0]?.version).toBe(3);
      expect(recs.length).toBe(records(originals.get(path) as Buffer).length);
      // The reference opens a v3 file without rewriting it, and sees every record as an entry.
      const ref = await openWithReference(path);
      expect(ref.getEntries()).toHaveLength(recs.length - 1);
    }
    // Nothing else appeared: two backups, no temp or lock files.
    const dirs = new Set(Object.values(files).map((p) => join(p, "..")));
    const names = [...dirs].flatMap((d) => readdirSync(d));
    expect(names.filter((n) => n.endsWith(".bak"))).toHaveLength(2);
    expect(names.filter((n) => n.endsWith(".tmp") || n.endsWith(".lock"))).toEqual([]);
    const again = await migrateJson([root]);
    expect(again.files.every((f) => f.status === "current")).toBe(true);
  });
});

describe("migrate on generated legacy files", () => {
  const MIGRATE_PARAMS = fcOptions(4);
  it(`keeps garbage lines verbatim and in place, backs up exactly, and matches the expected v2 records (numRuns ${MIGRATE_PARAMS.numRuns}, 10 files each)`, async () => {
    const batch = fc.array(legacySessionArb({ garbageLines: true, versionless: true }), {
      minLength: 10,
      maxLength: 10,
    });
    await fc.assert(
      fc.asyncProperty(batch, async (sessions) => {
        const root = tempDir();
        const dir = projectDir(root, "/home/dev/legacy");
        const paths = sessions.map((s, i) => {
          const path = join(dir, `l${i}.jsonl`);
          writeFileSync(path, s.jsonl);
          return path;
        });
        const before = snapshot(root);
        const dry = await migrateJson([dir, "--dry-run"]);
        expect(snapshot(root)).toEqual(before);
        expect(dry.files.every((f) => f.status === "would-migrate")).toBe(true);

        const result = await migrateJson([dir]);
        const byPath = new Map(result.files.map((f) => [f.path, f]));
        sessions.forEach((s, i) => {
          const path = paths[i] as string;
          const original = Buffer.from(s.jsonl);
          const entry = byPath.get(path);
          expect(entry?.status).toBe("migrated");
          expect(readFileSync(entry?.backup as string).equals(original)).toBe(true);
          const now = readFileSync(path);
          expect(unparseableLines(now)).toEqual(unparseableLines(original));
          expect(unparseableLines(now).map(String)).toEqual([...s.garbageLines]);
          const recs = records(now);
          expect(recs).toHaveLength(s.records.length);
          if (s.expected !== undefined) {
            // JSON-equal, key order included (the serialised text is compared).
            expect(recs.map((r) => JSON.stringify(r))).toEqual(
              s.expected.map((r) => JSON.stringify(r)),
            );
          } else {
            expect(recs.slice(1).every((r) => typeof r.id === "string")).toBe(true);
          }
        });
      }),
      MIGRATE_PARAMS,
    );
  });
});
