/**
 * `tree`, `context` and `usage` of one session through the session index print exactly what
 * they print reading the whole file (`--no-index`): on generated sessions (compactions,
 * labels, names, branches, usage), on the corpus (the legacy files after `migrate`), after the
 * file grows, with a torn tail, and with the index file deleted or overwritten with garbage.
 */

import {
  appendFileSync,
  existsSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { runCli } from "@pi-sessions/cli";
import { openSessionIndex } from "@pi-sessions/index";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import { sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CORPUS, copyCorpus } from "./helpers/fixtures.js";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in this process with captured streams. */
async function run(args: readonly string[], cwd: string): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (t: string) => (stdout += t), columns: 120 },
    stderr: { write: (t: string) => (stderr += t) },
    env: { ...process.env },
    cwd,
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

/** The commands compared, each once with the index and once without. */
function commands(file: string, leaf?: string): string[][] {
  const at = leaf === undefined ? [] : ["--leaf", leaf];
  return [
    ["tree", file],
    ["tree", file, "--depth", "100"],
    ["tree", file, "--depth", "4", "--json", ...at],
    ["tree", file, "--depth", "2"],
    ["context", file],
    ["context", file, "--json", ...at],
    ["usage", file],
    ["usage", file, "--json", ...at],
    ["usage", file, "--by", "day"],
    ["usage", file, "--by", "model", "--json"],
  ];
}

/** Asserts every command prints the same through `index` as from the file; returns the runs. */
async function expectSame(file: string, index: string, leaf?: string): Promise<Run[]> {
  const runs: Run[] = [];
  for (const args of commands(file, leaf)) {
    const direct = await run([...args, "--no-index"], tempDir());
    const indexed = await run([...args, "--index", index], tempDir());
    expect(indexed.stdout, args.join(" ")).toBe(direct.stdout);
    expect(indexed.code, args.join(" ")).toBe(direct.code);
    runs.push(indexed);
  }
  return runs;
}

/** How many entries the index answers `file` with (-1: it reads the file instead). */
function indexedRows(index: string, file: string): number {
  const opened = openSessionIndex({ file: index });
  try {
    const session = opened.session(file);
    const count = session === null ? -1 : session.entries().length;
    session?.close();
    return count;
  } finally {
    opened.close();
  }
}

const entryCount = (text: string) => text.split("\n").filter((l) => l.trim() !== "").length - 1;

describe("tree, context and usage through the index", () => {
  const PARAMS = fcOptions(25);
  it(`print what reading the file prints, for generated sessions (numRuns ${PARAMS.numRuns})`, async () => {
    const arb = sessionLogArb({
      minEntries: 1,
      maxEntries: 60,
      shape: "bushy",
      multiRoot: true,
      unknownTypes: true,
    });
    await fc.assert(
      fc.asyncProperty(arb, fc.nat(), async (log, pick) => {
        const dir = tempDir();
        const file = join(dir, "s.jsonl");
        const index = join(dir, "index.sqlite");
        writeFileSync(file, log.jsonl);
        const ids = log.entries.map((e) => (e as { id: string }).id);
        const leaf = ids[pick % ids.length]?.slice(0, 6);
        const runs = await expectSame(file, index, leaf);
        // Nothing was said on stderr beyond what the file read says: the index answered.
        for (const r of runs) expect(r.stderr).not.toContain("index");
        expect(indexedRows(index, file)).toBe(entryCount(log.jsonl));
      }),
      PARAMS,
    );
  });

  it("print the same for the corpus, the legacy files once migrated", async () => {
    const root = tempDir();
    const files = copyCorpus(root);
    for (const name of [CORPUS.large, CORPUS.beforeCompaction]) {
      const r = await run(["migrate", files[name] as string], root);
      expect(r.code, r.stderr).toBe(0);
    }
    const index = join(tempDir(), "index.sqlite");
    for (const file of Object.values(files)) {
      await expectSame(file, index);
      expect(indexedRows(index, file)).toBe(entryCount(readFileSync(file, "utf8")));
    }
  });

  it("catch up after the file grows, and read a torn tail from the file", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
    const index = join(tempDir(), "index.sqlite");
    await expectSame(file, index);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const last = JSON.parse(lines.at(-1) as string) as { id: string };
    const grown = {
      type: "message",
      id: "feedbeef",
      parentId: last.id,
      timestamp: "2026-01-02T00:00:00.000Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "appended later" }],
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 5, output: 7, cacheRead: 0, cacheWrite: 0, totalTokens: 12 },
        stopReason: "stop",
        timestamp: 1767312000000,
      },
    };
    appendFileSync(file, `${JSON.stringify(grown)}\n`);
    const runs = await expectSame(file, index);
    expect(runs[1]?.stdout).toContain("appended later");
    expect(indexedRows(index, file)).toBe(lines.length);
    // A torn last line: the file is no longer regular, so the commands read it whole.
    appendFileSync(file, '{"type":"message","id":"torn","parentId":"feedbeef","mess');
    await expectSame(file, index);
    // Finished: the index answers again, with the line it could not take before.
    appendFileSync(file, 'age":{"role":"user","content":"finished","timestamp":1}}\n');
    const finished = await expectSame(file, index);
    expect(finished[1]?.stdout).toContain("finished");
    expect(indexedRows(index, file)).toBe(lines.length + 1);
  });

  it("print the same when the index is deleted or is garbage, saying so on stderr", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
    const index = join(tempDir(), "index.sqlite");
    await expectSame(file, index);
    rmSync(index);
    await expectSame(file, index);
    expect(existsSync(index)).toBe(true);
    writeFileSync(index, "this is not a database, just bytes ".repeat(200));
    for (const f of [`${index}-wal`, `${index}-shm`]) rmSync(f, { force: true });
    const runs = await expectSame(file, index);
    // Not provably an index of ours: left as it is, and the session read directly.
    expect(runs[1]?.stderr).toContain("is not a pi-sessions index");
    expect(readFileSync(index, "utf8")).toBe("this is not a database, just bytes ".repeat(200));
    // A directory where the index should be: it cannot be opened; the file is read instead.
    const blocked = join(tempDir(), "blocked");
    writeFileSync(blocked, "a file where a directory should be");
    const r = await run(["context", file, "--index", join(blocked, "index.sqlite")], tempDir());
    const direct = await run(["context", file, "--no-index"], tempDir());
    expect(r.stdout).toBe(direct.stdout);
    expect(r.stderr).toContain("index unavailable");
  });

  it("never answer from rows a rewrite in place made stale (same size and mtime: the ctime tells)", async () => {
    const root = tempDir();
    const file = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
    const index = join(tempDir(), "index.sqlite");
    // A whole-second mtime, so that setting it again restores it exactly.
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    await expectSame(file, index);
    const text = readFileSync(file, "utf8");
    const lines = text.split("\n");
    const at = lines.findIndex((l, i) => i > 0 && l.includes('"type":"message"'));
    const id = (JSON.parse(lines[at] as string) as { id: string }).id;
    lines[at] = (lines[at] as string).replace(`"id":"${id}"`, `"id":"${"z".repeat(id.length)}"`);
    writeFileSync(file, lines.join("\n"));
    utimesSync(file, 1_700_000_000, 1_700_000_000);
    // The whole tree, its top (the line is near the root), and the usage of a branch through
    // that line: the index sees the file's ctime moved without growth and reads it again from
    // the start (SPEC §14 F1), so each answer is the file's, said as a direct read says it.
    for (const args of [
      ["tree", file, "--depth", "100"],
      ["tree", file, "--depth", "2"],
      ["usage", file, "--leaf", id],
    ]) {
      const direct = await run([...args, "--no-index"], tempDir());
      const indexed = await run([...args, "--index", index], tempDir());
      expect(indexed.stdout, args.join(" ")).toBe(direct.stdout);
      expect(indexed.code, args.join(" ")).toBe(direct.code);
      expect(indexed.stderr, args.join(" ")).toBe(direct.stderr);
    }
  });
});
