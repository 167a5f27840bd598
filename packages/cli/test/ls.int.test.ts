/**
 * `ls` through the real bin on copies of the corpus and generated sessions: the SessionInfo
 * fields agree with the reference's `list`, entries and branch tips with the reference's
 * tree, newest first, cwd filtering, and nothing is ever written.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CORPUS_DIR, tempDir } from "@pi-sessions/test-utils";
import { sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CORPUS, copyCorpus, projectDir, snapshot } from "./helpers/fixtures.js";
import {
  listWithReference,
  openWithReference,
  type ReferenceInfo,
  type ReferenceTreeNode,
} from "./helpers/reference.js";
import { runBin } from "./helpers/run-bin.js";

/** A row of `ls --json`: the reference's SessionInfo with the modified time as text, plus counts. */
interface Row extends Omit<ReferenceInfo, "modified" | "created"> {
  modified: string;
  entries: number;
  branches: number;
  size: number;
  problems: number;
}

async function lsJson(args: readonly string[]): Promise<Row[]> {
  const r = await runBin(["ls", ...args, "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

function leaves(nodes: readonly ReferenceTreeNode[]): number {
  let n = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop() as ReferenceTreeNode;
    if (node.children.length === 0) n++;
    stack.push(...node.children);
  }
  return n;
}

/** Writes `count` generated sessions into the project directory of `/home/dev/gen`. */
function writeGenerated(root: string, count: number, seed: number): string[] {
  const logs = fc.sample(sessionLogArb({ minEntries: 1, maxEntries: 25, shape: "bushy" }), {
    numRuns: count,
    seed,
  });
  return logs.map((log, i) => {
    const header = { ...log.header, cwd: "/home/dev/gen" };
    const lines = log.jsonl.split("\n");
    lines[0] = JSON.stringify(header);
    const path = join(projectDir(root, "/home/dev/gen"), `gen-${i}.jsonl`);
    writeFileSync(path, lines.join("\n"));
    return path;
  });
}

describe("ls --all", () => {
  it("agrees with the reference on every session's info, entries and branch tips", async () => {
    const root = tempDir();
    copyCorpus(root);
    writeGenerated(root, 8, 42);
    const rows = await lsJson(["--all", "--dir", root]);
    expect(rows).toHaveLength(11);
    const dirs = new Set(rows.map((r) => dirname(r.path)));
    const reference = new Map<string, Awaited<ReturnType<typeof listWithReference>>[number]>();
    for (const dir of dirs) {
      const cwd = rows.find((r) => dirname(r.path) === dir)?.cwd as string;
      for (const info of await listWithReference(cwd, dir)) reference.set(info.path, info);
    }
    for (const row of rows) {
      const info = reference.get(row.path);
      expect(info, row.path).toBeDefined();
      expect({
        id: row.id,
        cwd: row.cwd,
        name: row.name,
        first: row.firstMessage,
        n: row.messageCount,
      }).toEqual({
        id: info?.id,
        cwd: info?.cwd,
        name: info?.name,
        first: info?.firstMessage,
        n: info?.messageCount,
      });
      expect(row.modified).toBe(info?.modified.toISOString());
      const ref = await openWithReference(row.path);
      expect(row.entries, row.path).toBe(ref.getEntries().length);
      expect(row.branches, row.path).toBe(leaves(ref.getTree()));
    }
    const times = rows.map((r) => Date.parse(r.modified));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("prints a table with one line per session, the cwd under it, and a summary", async () => {
    const root = tempDir();
    copyCorpus(root);
    const rows = await lsJson(["--all", "--dir", root]);
    const r = await runBin(["ls", "--all", "--dir", root]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^MODIFIED\s+ENTRIES\s+BRANCHES\s+SIZE\s+ID\s+NAME \/ FIRST MESSAGE$/);
    expect(lines).toHaveLength(1 + rows.length * 2 + 1);
    rows.forEach((row, i) => {
      const line = lines[1 + i * 2] as string;
      expect(line).toContain(row.id.slice(0, 8));
      expect(line).toMatch(new RegExp(`\\s${row.entries}\\s+${row.branches}\\s`));
      expect(lines[2 + i * 2]?.trim()).toBe(row.cwd);
    });
    expect(lines.at(-1)).toMatch(/^3 sessions, 3\.\d MB$/);
    expect(r.stdout).toContain("Layout and docs");
  });

  it("writes nothing, not even to v1 files, and draws no progress bar into a pipe", async () => {
    const root = tempDir();
    copyCorpus(root);
    writeGenerated(root, 220, 7);
    const before = snapshot(root);
    const r = await runBin(["ls", "--all", "--dir", root]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(snapshot(root)).toEqual(before);
  });
});

describe("ls and files that are not sessions", () => {
  it("leaves them out of the list and says how many on stderr", async () => {
    const root = tempDir();
    copyCorpus(root, [CORPUS.branched]);
    writeFileSync(join(projectDir(root, "/home/dev/x"), "junk.jsonl"), "not json\n");
    writeFileSync(join(projectDir(root, "/home/dev/x"), "empty.jsonl"), "");
    const r = await runBin(["ls", "--all", "--dir", root, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    expect(r.stderr.trim()).toBe(
      "pi-sessions: 2 .jsonl files are not readable as sessions; run `pi-sessions check` to see why",
    );
  });
});

describe("ls for one working directory", () => {
  it("lists the sessions of --cwd (default: the current directory) and says when there are none", async () => {
    const root = tempDir();
    copyCorpus(root);
    const mine = await lsJson(["--cwd", "/home/dev/project", "--dir", root]);
    expect(mine.map((r) => r.id)).toEqual(["01a22a6a-1870-74e8-b456-77b8915db22e"]);
    const pimono = await lsJson(["--cwd", "/Users/badlogic/workspaces/pi-mono", "--dir", root]);
    expect(pimono).toHaveLength(2);

    const home = tempDir();
    const tilde = tempDir();
    copyCorpus(tilde, [CORPUS.branched]);
    const file = join(projectDir(tilde, join(home, "proj")), "t.jsonl");
    const text = readFileSync(join(CORPUS_DIR, CORPUS.branched), "utf8").split("\n");
    text[0] = JSON.stringify({ ...JSON.parse(text[0] as string), cwd: join(home, "proj") });
    writeFileSync(file, text.join("\n"));
    const r = await runBin(["ls", "--cwd", "~/proj", "--dir", tilde, "--json"], {
      env: { HOME: home },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((row: Row) => row.path)).toEqual([file]);

    const here = tempDir();
    const none = await runBin(["ls", "--dir", root], { cwd: here });
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toBe(
      `pi-sessions: no sessions for ${here} in ${root} (use --all for every directory, or --dir to read another one)`,
    );
  });
});
