/**
 * `ls` reads each file once: the listing's shape gives a regular file's counts, and only
 * irregular files are loaded again. These tests hold it to the old way — a full load of every
 * listed file (`fullRowOf`) — on the bundled demo sessions plus damaged ones, through the real
 * bin, and on random clean, damaged and legacy files.
 */

import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionInfo } from "@pi-sessions/core";
import {
  encodeCwd,
  listAllSessions,
  listSessions,
  listSessionsInDir,
} from "@pi-sessions/core/internal";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { damagedSessionArb, legacySessionArb, sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullRowOf, rowOf } from "../src/session/ls-rows.js";
import { projectDir, writeSession } from "./helpers/fixtures.js";
import { CLI_DIR, runBin } from "./helpers/run-bin.js";

/** Newest first, stable: the order `ls` prints. */
const newestFirst = (a: SessionInfo, b: SessionInfo) => b.modified.getTime() - a.modified.getTime();

/** The rows the old `ls` printed: plain listing, then a full load of every file. */
async function oldRows(root: string, cwd?: string): Promise<unknown> {
  const options = { cache: null } as const;
  const infos =
    cwd === undefined
      ? [...(await listAllSessions(root, options)), ...(await listSessionsInDir(root, options))]
      : [
          ...(await listSessions(join(root, encodeCwd(cwd)), { ...options, filterCwd: cwd })),
          ...(await listSessions(root, { ...options, filterCwd: cwd, emptyCwdMatches: false })),
        ];
  return JSON.parse(JSON.stringify(infos.sort(newestFirst).map(fullRowOf)));
}

const HEADER = (id: string, cwd: string, version: unknown = 3) =>
  JSON.stringify({ type: "session", version, id, timestamp: "2026-01-05T10:00:00.000Z", cwd });

/** An entry line; `parentId` undefined leaves the key out. */
const entry = (id: unknown, parentId: unknown, minute = 1) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: `2026-01-05T10:${String(minute).padStart(2, "0")}:00.000Z`,
    message: {
      role: "user",
      content: `message ${String(id)}`,
      timestamp: Date.parse("2026-01-05") + minute,
    },
  });

/** One file for each way a session can be irregular, plus clean ones, under `/home/dev/damaged`. */
function writeDamaged(root: string): void {
  const cwd = "/home/dev/damaged";
  const files: Record<string, string> = {
    "clean.jsonl": [HEADER("c1", cwd), entry("a", null), entry("b", "a"), entry("c", "a")].join(
      "\n",
    ),
    "forward-parent.jsonl": [HEADER("c2", cwd), entry("b", "a", 2), entry("a", null, 3)].join("\n"),
    "dangling.jsonl": [HEADER("c3", cwd), entry("a", "ghost", 4)].join("\n"),
    "self-parent.jsonl": [HEADER("c4", cwd), entry("a", "a", 5)].join("\n"),
    "cycle.jsonl": [HEADER("c5", cwd), entry("a", "b", 6), entry("b", "a", 7)].join("\n"),
    "duplicate.jsonl": [HEADER("c6", cwd), entry("a", null, 8), entry("a", null, 9)].join("\n"),
    "garbage.jsonl": [HEADER("c7", cwd), "{not json", "[1]", entry("a", null, 10)].join("\n"),
    "id-less.jsonl": [HEADER("c8", cwd), entry(undefined, null, 11), entry(7, null, 12)].join("\n"),
    "extra-header.jsonl": [HEADER("c9", cwd), entry("a", null, 13), HEADER("x", cwd)].join("\n"),
    "v2.jsonl": [HEADER("c10", cwd, 2), entry("a", null, 14)].join("\n"),
    "version-string.jsonl": [HEADER("c11", cwd, "3"), entry("a", null, 15)].join("\n"),
  };
  for (const [name, text] of Object.entries(files)) writeSession(root, cwd, name, `${text}\n`);
  writeSession(
    root,
    cwd,
    "no-newline.jsonl",
    [HEADER("c12", cwd), entry("a", null, 16)].join("\n"),
  );
  writeSession(root, cwd, "header-only.jsonl", `${HEADER("c13", cwd)}\n`);
  // A file lying in the root itself, read by `--all` and by a matching `--cwd`.
  writeFileSync(
    join(root, "flat.jsonl"),
    `${[HEADER("c14", cwd), entry("z", "y", 17)].join("\n")}\n`,
  );
}

describe("ls rows equal a full load of every file", () => {
  it("on the demo sessions plus one damaged file of each kind (--all and --cwd)", async () => {
    const root = tempDir();
    cpSync(join(CLI_DIR, "demo", "sessions"), root, { recursive: true });
    writeDamaged(root);
    projectDir(root, "/home/dev/empty");

    const all = await runBin(["ls", "--all", "--json", "--dir", root]);
    expect(all.code, all.stderr).toBe(0);
    const rows = JSON.parse(all.stdout) as { problems: number; path: string }[];
    expect(rows).toEqual(await oldRows(root));
    // Both paths were taken: clean files and files with problems are among the rows.
    expect(rows.length).toBe(21);
    expect(rows.filter((r) => r.problems > 0).length).toBeGreaterThanOrEqual(12);
    expect(rows.filter((r) => r.problems === 0).length).toBeGreaterThanOrEqual(5);

    const one = await runBin(["ls", "--cwd", "/home/dev/damaged", "--json", "--dir", root]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual(await oldRows(root, "/home/dev/damaged"));
  });
});

/** Random files: clean, damaged in every way the testkit knows, legacy, or with a forward parent. */
const textArb = fc.oneof(
  sessionLogArb({ minEntries: 0, maxEntries: 15, shape: "bushy" }).map((log) => log.jsonl),
  damagedSessionArb({ maxEntries: 15 }).map((d) => d.jsonl),
  legacySessionArb({ maxEntries: 10, garbageLines: true }).map((l) => l.jsonl),
  fc
    .tuple(sessionLogArb({ minEntries: 2, maxEntries: 10 }), fc.nat(), fc.nat())
    .map(([log, i, j]) => {
      // Swapping entry lines can put a child before its parent: no problem, but irregular.
      const lines = log.jsonl.split("\n");
      const a = 1 + (i % (lines.length - 2));
      const b = 1 + (j % (lines.length - 2));
      [lines[a], lines[b]] = [lines[b] as string, lines[a] as string];
      return lines.join("\n");
    }),
);

describe("rowOf (one pass) against fullRowOf (full load)", () => {
  const params = fcOptions(150);
  it(`agree on every random file (numRuns ${params.numRuns})`, async () => {
    const dir = tempDir();
    let n = 0; // one directory per run
    let shaped = 0;
    await fc.assert(
      fc.asyncProperty(textArb, async (text) => {
        const sub = join(dir, String(n++));
        mkdirSync(sub);
        writeFileSync(join(sub, "s.jsonl"), text);
        const [info] = await listSessionsInDir(sub, { cache: null, withShape: true });
        if (info === undefined) return; // not a session: `ls` has no row for it either
        if (info.shape.regular) shaped++;
        const { shape: _shape, ...plain } = info;
        expect(rowOf(info)).toEqual(fullRowOf(plain));
      }),
      params,
    );
    expect(shaped).toBeGreaterThan(params.numRuns / 10);
  });
});
