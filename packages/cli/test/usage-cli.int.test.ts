/**
 * `pi-sessions usage` through the real bin, on copies of the corpus and on sessions the
 * engine writes (branched, compacted, forked). Totals are checked against an independent sum
 * from the raw JSON lines (`helpers/usage-sum.ts`), not against the plugins code the command
 * uses.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { beforeEach, describe, expect, it } from "vitest";
import {
  assistant,
  CORPUS,
  copyCorpus,
  type TempRoot,
  tempRoot,
  usageOf,
  writeDemoSession,
} from "./export-fixtures.js";
import { runBin } from "./helpers/run-bin.js";
import {
  expectTotals,
  pathToLast,
  type Raw,
  rawUsages,
  recordsOf,
  sum,
} from "./helpers/usage-sum.js";

let tmp: TempRoot;
beforeEach(() => {
  tmp = tempRoot();
});

describe("usage <session>", () => {
  it("prints computeUsageTotals' shape for a corpus file, equal to an independent sum", async () => {
    const file = copyCorpus(tmp.project, CORPUS.branched);
    const r = await runBin(["usage", file, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Raw;
    expect(Object.keys(json).sort()).toEqual(["branch", "diagnostics", "leafId", "tree"]);
    expect(json.diagnostics).toEqual([]);
    const records = recordsOf(file);
    expectTotals(json.tree as Raw, rawUsages(records));
    expectTotals(json.branch as Raw, rawUsages(pathToLast(records)));
    expect(json.leafId).toBe(records[records.length - 1]?.id);
    // The tree holds the abandoned branch's usage too, so it must be strictly larger here.
    expect((json.tree as Raw).records).toBeGreaterThan((json.branch as Raw).records as number);
  });

  it("shows whole tree, branch and per-model rows as text, and reads a v1 file without writing it", async () => {
    const file = copyCorpus(tmp.project, CORPUS.large);
    const before = readFileSync(file);
    const r = await runBin(["usage", file]);
    expect(r.code).toBe(0);
    const records = rawUsages(recordsOf(file)).length;
    expect(records).toBeGreaterThan(100);
    expect(r.stdout).toMatch(new RegExp(`^whole tree\\s+${records}\\s`, "m"));
    expect(r.stdout).toMatch(/^branch at \S+ \(current leaf\)\s+\d/m);
    expect(r.stdout).toMatch(/^anthropic\/claude-sonnet-4-5\s+\d/m);
    // No record has totalTokens: the column shows the four counts' sum (pi's figure), not 0.
    expect(r.stdout).toMatch(/^whole tree\s+453\s.*\s47,609,906\s+\$30\.33$/m);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("a v1 file without totalTokens counts input + output + cacheRead + cacheWrite", async () => {
    const file = copyCorpus(tmp.project, CORPUS.large);
    const usages = rawUsages(recordsOf(file));
    expect(usages.some((u) => "totalTokens" in u)).toBe(false);
    const four = ["input", "output", "cacheRead", "cacheWrite"].map((f) => sum(usages, f));
    const expected = four.reduce((n, x) => n + x, 0);
    expect(expected).toBe(47_609_906); // what pi's /session shows; we used to show 0
    const r = await runBin(["usage", file, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as { tree: Raw; branch: Raw };
    expect([json.tree.totalTokens, json.branch.totalTokens]).toEqual([expected, expected]);
    expectTotals(json.tree, usages);
  });

  it("a negative count is a warning naming the file, entry and field, and is left out of the sums", async () => {
    const file = copyCorpus(tmp.project, CORPUS.branched);
    const header = readFileSync(file, "utf8").split("\n")[0];
    const records = recordsOf(file);
    const bad = records.find((r) => (r.message as Raw | undefined)?.role === "assistant") as Raw;
    const badUsage = (bad.message as Raw).usage as Raw;
    const output = badUsage.output as number;
    expect(output).toBeGreaterThan(0);
    badUsage.output = -output;
    writeFileSync(file, `${[header, ...records.map((r) => JSON.stringify(r))].join("\n")}\n`);
    const warning = `warning: ${file}: entry ${bad.id} (assistant): usage.output is ${-output}; not counted`;

    const text = await runBin(["usage", file]);
    expect(text.code).toBe(0);
    expect(text.stderr.trim().split("\n")).toEqual([warning]);

    const r = await runBin(["usage", file, "--json"]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { tree: Raw; diagnostics: Raw[] };
    expect(json.diagnostics).toEqual([
      {
        entryId: bad.id,
        source: "assistant",
        field: "output",
        value: -output,
        message: warning.slice(`warning: ${file}: `.length),
      },
    ]);
    const usages = rawUsages(recordsOf(file));
    expectTotals(json.tree, usages); // the independent sum drops negatives too
    expect(json.tree.output).toBe(sum(usages, "output"));

    const all = await runBin(["usage", "--all", "--json", "--dir", tmp.root]);
    expect(all.stderr.trim().split("\n")).toEqual([warning]);
    const dir = JSON.parse(all.stdout) as { diagnostics: Raw[] };
    expect(dir.diagnostics).toMatchObject([{ path: file, entryId: bad.id, field: "output" }]);
  });

  it("--leaf takes the branch at another entry (or a prefix of its id); an unknown leaf is exit 1", async () => {
    const demo = writeDemoSession(tmp.project);
    const r = await runBin(["usage", demo.path, "--leaf", demo.abandonedLeaf, "--json"]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Raw;
    const records = recordsOf(demo.path);
    const byId = new Map(records.map((e) => [e.id as string, e]));
    const path: Raw[] = [];
    for (let at = byId.get(demo.abandonedLeaf); at; at = byId.get(at.parentId as string))
      path.unshift(at);
    expectTotals(json.branch as Raw, rawUsages(path));
    expect(json.leafId).toBe(demo.abandonedLeaf);

    const byPrefix = await runBin(["usage", demo.path, "--leaf", demo.abandonedLeaf.slice(0, 6)]);
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect(byPrefix.stdout).toContain(`branch at ${demo.abandonedLeaf} `);

    const bad = await runBin(["usage", demo.path, "--leaf", "nope"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain('no entry "nope"');
  });

  it("--by model and --by day split the totals into groups that add up to them", async () => {
    const demo = writeDemoSession(tmp.project);
    for (const by of ["model", "day"]) {
      const r = await runBin(["usage", demo.path, "--by", by, "--json"]);
      expect(r.code).toBe(0);
      const json = JSON.parse(r.stdout) as Raw;
      expect(json.by).toBe(by);
      const groups = json.groups as { key: string; tree: Raw; branch: Raw }[];
      expect(groups.length).toBeGreaterThan(1);
      const tree = json.tree as Raw;
      const branch = json.branch as Raw;
      expect(groups.reduce((n, g) => n + (g.tree.input as number), 0)).toBe(tree.input);
      expect(groups.reduce((n, g) => n + (g.branch.records as number), 0)).toBe(branch.records);
    }
    const days = JSON.parse(
      (await runBin(["usage", demo.path, "--by", "day", "--json"])).stdout,
    ) as {
      groups: { key: string }[];
    };
    // The fixture's clock steps five hours per entry: the records span several UTC days.
    expect(days.groups.map((g) => g.key)).toEqual([...days.groups.map((g) => g.key)].sort());
    expect(days.groups.every((g) => /^\d{4}-\d{2}-\d{2}$/.test(g.key))).toBe(true);
  });

  it("rejects bad arguments with exit 2 and one line on stderr", async () => {
    const file = copyCorpus(tmp.project, CORPUS.branched);
    for (const args of [
      ["usage", file, "--by", "week"],
      ["usage", file, "--all"],
      ["usage", join(tmp.project, "missing.jsonl")],
      ["usage", "--leaf", "x", "--dir", tmp.root],
    ]) {
      const r = await runBin(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim()).not.toBe("");
    }
    const garbage = join(tmp.scratch, "garbage.jsonl");
    writeFileSync(garbage, "not json\n");
    const g = await runBin(["usage", garbage]);
    expect(g.code).toBe(2);
    expect(g.stderr).toMatch(/not a pi session/);
  });

  it("exits 1 when no session matches the argument", async () => {
    copyCorpus(tmp.project, CORPUS.branched);
    const r = await runBin(["usage", "no-such-session", "--dir", tmp.root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no session matches");
  });
});

describe("usage --all", () => {
  it("counts entries that forks and branched sessions copied from their parent once", async () => {
    const demo = writeDemoSession(tmp.project);
    const env = createDeterministicEnv({ seed: 99, startMs: Date.UTC(2025, 1, 1) });
    const fork = SessionManager.forkFrom(demo.path, "/work/demo", tmp.project, { env });
    fork.appendMessage(assistant("A new answer in the fork.", usageOf(20)));
    fork.close();
    const branched = SessionManager.open(fork.getSessionFile() as string, undefined, undefined, {
      env,
    });
    branched.createBranchedSession(demo.abandonedLeaf);
    branched.close();

    const r = await runBin(["usage", "--all", "--json", "--dir", tmp.root]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as Raw;
    expect(json.sessions).toBe(3);
    const parent = rawUsages(recordsOf(demo.path));
    // Everything the fork and the branched copy hold beyond the parent is the one new answer.
    expectTotals(json.total as Raw, [...parent, usageOf(20) as unknown as Raw]);
    const copies = rawUsages(recordsOf(fork.getSessionFile() as string)).length - 1;
    const branchedCopies = rawUsages(recordsOf(branched.getSessionFile() as string)).length;
    expect(json.copiedRecords).toBe(copies + branchedCopies);

    const bySession = JSON.parse(
      (await runBin(["usage", "--all", "--by", "session", "--json", "--dir", tmp.root])).stdout,
    ) as {
      groups: {
        key: string;
        totals: Raw;
        own: Raw;
        copiedRecords: number;
        parentSession?: string;
      }[];
    };
    const forkGroup = bySession.groups.find((g) => g.key === fork.getSessionFile());
    expect(forkGroup?.totals.records).toBe(1);
    expect(forkGroup?.own.records).toBe(parent.length + 1);
    expect(forkGroup?.parentSession).toBe(demo.path);

    const text = await runBin(["usage", "--dir", tmp.root]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^3 sessions in /);
    expect(text.stdout).toContain(`records copied by forks counted once`);
    expect(text.stdout).toMatch(/^total\s+9\s/m);
  });

  it("--by day over a directory adds up to the fork-aware total", async () => {
    writeDemoSession(tmp.project);
    writeDemoSession(tmp.project, { seed: 3 });
    copyCorpus(tmp.project, CORPUS.beforeCompaction);
    const r = await runBin(["usage", "--all", "--by", "day", "--json", "--dir", tmp.root]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { total: Raw; groups: { key: string; totals: Raw }[] };
    expect(json.groups.reduce((n, g) => n + (g.totals.records as number), 0)).toBe(
      json.total.records,
    );
    expect(json.groups.reduce((n, g) => n + (g.totals.output as number), 0)).toBe(
      json.total.output,
    );
  });

  it("skips files that are not sessions with a note, and says so when there are none (exit 1)", async () => {
    writeFileSync(join(tmp.project, "broken.jsonl"), "{oops\n");
    const r = await runBin(["usage", "--all", "--json", "--dir", tmp.root]);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as Raw;
    expect(json.sessions).toBe(0);
    expect(json.skipped).toEqual([join(tmp.project, "broken.jsonl")]);
    expect(r.stderr).toContain("--dir");

    const empty = await runBin(["usage", "--all"], { env: { PI_CODING_AGENT_DIR: tmp.scratch } });
    expect(empty.code).toBe(1);
    expect(empty.stdout).toBe("");
    expect(empty.stderr).toMatch(/no sessions in .*--dir/);
  });
});
