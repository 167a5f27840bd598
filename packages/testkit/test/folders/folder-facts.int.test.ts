/**
 * `sessionFolderArb`'s facts hold on disk, checked against the session managers themselves:
 *
 * - a fork's records are exactly what `SessionManager.forkFrom` writes for its source (ours
 *   and pi 1.6's), and its header names the source as `parentSession` when the link resolves;
 * - a branched session's records are exactly what `createBranchedSession` writes at the same
 *   entry (ours and pi's; recreated label ids are fresh, so labels compare without their id),
 *   and where our builder says pi would write no file, neither manager writes one;
 * - a copy has its source's text under another cwd folder; `moved` and `deleted` links do not
 *   resolve; every path is `<cwd folder as pi names it>/<fileTs>_<id>.jsonl`;
 * - a damaged or legacy file's records are what core loads from it;
 * - a record found in a file that did not make it is a copy along the file's source chain.
 *
 * Runs: `FC_RUNS` scales them (defaults in the titles); replay with `FC_SEED` / `FC_PATH`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadEntriesFromFile, SessionManager } from "@pi-sessions/core";
import { encodeCwd, sessionFileName } from "@pi-sessions/core/internal";
import { fcOptions, fcRuns, loadReference, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { branchedRecords } from "../../src/folders/derived-files.js";
import {
  folderFileText,
  resolveParentSession,
  sessionFolderArb,
  writeFolder,
} from "../../src/internal.js";

interface ManagerModule {
  SessionManager: {
    forkFrom(source: string, cwd: string, dir?: string): { getSessionFile(): string | undefined };
    open(path: string, dir?: string): { createBranchedSession(leafId: string): string | undefined };
  };
}

const ref = await loadReference<ManagerModule>();
const ours = { SessionManager } as unknown as ManagerModule;
const MANAGERS = [
  ["ours", ours],
  ["pi 1.6", ref],
] as const;

/** The non-header records of a written file. */
function recordsOf(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .slice(1)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Label entries without their fresh id and chained parent (both are new in a branched file). */
function comparable(records: readonly Record<string, unknown>[]) {
  return records.map((r) => {
    if (r.type !== "label") return r;
    const { id: _id, parentId: _parent, ...rest } = r;
    return rest;
  });
}

// No BOM (a manager rejects the file, see the value's rule): sources must load.
const folders = sessionFolderArb({
  values: ["duplicate-lines", "timestamp-offset", "numeric-strings", "line-separators"],
  longLineLength: 100,
});

describe("sessionFolderArb: derived files are what the managers write", () => {
  it(`forks equal forkFrom's output, ours and pi's (${fcRuns(60)} runs)`, () => {
    const base = tempDir();
    let forks = 0;
    let compared = 0;
    fc.assert(
      fc.property(folders, (folder) => {
        const root = join(base, `r${forks++}`);
        writeFolder(folder, root);
        for (const file of folder.files.filter((f) => f.kind === "fork")) {
          const source = folder.files.find((f) => f.path === file.source);
          if (!source) continue; // a deleted parent: nothing to fork again
          for (const [name, m] of MANAGERS) {
            const out = join(root, `out-${name}`);
            const made = m.SessionManager.forkFrom(join(root, source.path), "/elsewhere", out);
            const written = recordsOf(made.getSessionFile() as string);
            expect(written, `${name}: fork of ${source.path}`).toEqual(
              file.records.map((r) => r.entry),
            );
            compared++;
          }
        }
      }),
      fcOptions(60),
    );
    expect(compared).toBeGreaterThan(0);
  });

  it(`branched sessions equal createBranchedSession's output at up to four entries per file, ours and pi's (${fcRuns(40)} runs)`, () => {
    const base = tempDir();
    let n = 0;
    const outcomes = { written: 0, none: 0 };
    fc.assert(
      fc.property(sessionFolderArb({ derived: [], damaged: false, legacy: false }), (folder) => {
        const root = join(base, `r${n++}`);
        writeFolder(folder, root);
        for (const file of folder.files) {
          const ids = file.records.map((r) => r.entry.id as string).slice(0, 4);
          for (const id of ids) {
            const built = branchedRecords(file.records, id, "x", 7);
            for (const [name, m] of MANAGERS) {
              const out = join(root, `out-${name}-${id}`);
              const sm = m.SessionManager.open(join(root, file.path), out);
              sm.createBranchedSession(id);
              const files = existsSync(out)
                ? readdirSync(out).filter((f) => f.endsWith(".jsonl"))
                : [];
              expect(files.length, `${name}: file written at ${id}`).toBe(built.written ? 1 : 0);
              outcomes[built.written ? "written" : "none"]++;
              if (!built.written) continue;
              const written = recordsOf(join(out, files[0] as string));
              expect(comparable(written), `${name}: branched at ${id}`).toEqual(
                comparable(built.records.map((r) => r.entry)),
              );
            }
          }
        }
      }),
      fcOptions(40),
    );
    expect(outcomes.written).toBeGreaterThan(0);
    expect(outcomes.none).toBeGreaterThan(0);
  });

  it(`branched files in folders carry the builder's records; labels chain after the kept path (${fcRuns(100)} runs)`, () => {
    let seen = 0;
    fc.assert(
      fc.property(sessionFolderArb({ derived: ["branched"] }), (folder) => {
        for (const file of folder.files.filter((f) => f.kind === "branched")) {
          seen++;
          const ids = file.records.map((r) => r.entry.id);
          file.records.forEach((r, i) => {
            expect(r.entry.parentId).toBe(i === 0 ? null : ids[i - 1]);
          });
          // The leaf itself is kept unless it is a label (labels are dropped, then recreated).
          const source = folder.files.find((f) => f.path === file.source);
          const leaf = source?.records.find((r) => r.entry.id === file.branchedAt);
          if (leaf && leaf.entry.type !== "label") expect(ids).toContain(file.branchedAt);
        }
      }),
      fcOptions(100),
    );
    expect(seen).toBeGreaterThan(0);
  });
});

describe("sessionFolderArb: names, links, copies and origins", () => {
  it(`paths, parent links, copies and origins hold (${fcRuns(150)} runs)`, () => {
    const base = tempDir();
    let n = 0;
    const links = new Set<string>();
    fc.assert(
      fc.property(folders, (folder) => {
        const root = join(base, `r${n++}`);
        writeFolder(folder, root);
        const paths = folder.files.map((f) => f.path);
        expect(new Set(paths).size).toBe(paths.length);
        for (const file of folder.files) {
          const [dir, name] = file.path.split("/");
          const h = file.header;
          if (file.kind !== "copy" && file.kind !== "legacy" && h) {
            // A branched session is written next to its source (the opened file's directory).
            expect(dir).toBe(
              file.kind === "branched" ? file.source?.split("/")[0] : encodeCwd(h.cwd as string),
            );
            expect(name).toBe(sessionFileName(h.timestamp as string, h.id as string));
          }
          expect(readFileSync(join(root, dir as string, name as string), "utf8")).toBe(
            folderFileText(file, root),
          );
          if (file.parentLink !== undefined && file.kind !== "copy") {
            links.add(file.parentLink);
            const target = resolveParentSession(h?.parentSession as string, root);
            const resolves = existsSync(target);
            expect(resolves, `${file.path} → ${target}`).toBe(file.parentLink === "resolvable");
            if (file.parentLink === "resolvable")
              expect(target).toBe(join(root, file.source as string));
            if (file.parentLink === "deleted") expect(folder.deleted).toContain(file.source);
            if (file.parentLink === "moved") expect(target.endsWith(`/${file.source}`)).toBe(true);
          }
          if (file.kind === "copy") {
            const source = folder.files.find((f) => f.path === file.source);
            expect(file.path.split("/")[0]).not.toBe(file.source?.split("/")[0]);
            expect(file.path.split("/")[1]).toBe(file.source?.split("/")[1]);
            if (source && !source.values.includes("bom")) expect(file.text).toBe(source.text);
          }
          // A record from elsewhere is a copy made along this file's source chain.
          for (const r of file.records) {
            const from = r.origin.slice(0, r.origin.lastIndexOf("#"));
            if (from !== file.path) expect(file.ancestors).toContain(from);
          }
          if (file.source !== undefined) expect(file.ancestors[0]).toBe(file.source);
        }
      }),
      fcOptions(150),
    );
    expect([...links].sort()).toEqual(["deleted", "moved", "resolvable"]);
  });

  it(`damaged and legacy files: their records are what core loads (${fcRuns(150)} runs)`, () => {
    const base = tempDir();
    let n = 0;
    const kinds = new Set<string>();
    fc.assert(
      fc.property(sessionFolderArb({ derived: [] }), (folder) => {
        const root = join(base, `r${n++}`);
        writeFolder(folder, root);
        for (const file of folder.files) {
          kinds.add(file.kind);
          const loaded = loadEntriesFromFile(join(root, file.path)).slice(1);
          expect(loaded).toEqual(file.records.map((r) => r.entry));
        }
      }),
      fcOptions(150),
    );
    expect([...kinds].sort()).toEqual(["damaged", "legacy", "session"]);
  });
});
