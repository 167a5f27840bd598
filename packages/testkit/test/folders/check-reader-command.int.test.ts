/**
 * `checkReader` as a tool author meets it: a command gets the sessions root as an argument, in
 * an environment variable or through `HOME` (each run has a home of its own, the root at
 * `<home>/.pi/agent/sessions` as pi keeps it), is stopped by `timeoutMs`, and may end with the
 * exit codes the author lists; the report counts its shrinks, stops shrinking at
 * `shrinkTimeLimitMs`, says when it cut a line, and its folder written out with `writeFolder`
 * fails the reader again.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { afterEach, describe, expect, it } from "vitest";
import { checkReader, type SessionFolder, writeFolder } from "../../src/index.js";
import { sameRecordCount as sameCount, sumEverything } from "./naive-readers.js";

/** A script that prints `{ root, args, home, agentDir, files, marker }` as JSON. */
function probeScript(): string {
  const script = join(tempDir(), "probe.mjs");
  writeFileSync(
    script,
    `import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
const args = process.argv.slice(2);
const root = process.env.PROBE_ROOT ?? (args.length > 0 ? args[args.length - 1] : homedir() + "/.pi/agent/sessions");
const files = readdirSync(root).flatMap((d) => readdirSync(root + "/" + d));
const marker = homedir() + "/.probe-cache";
const seenBefore = existsSync(marker);
writeFileSync(marker, "x");
console.log(JSON.stringify({ root, args, home: homedir(), agentDir: process.env.PI_CODING_AGENT_DIR ?? null, files: files.length, seenBefore }));
`,
  );
  return script;
}

interface Probe {
  readonly root: string;
  readonly args: string[];
  readonly home: string;
  readonly agentDir: string | null;
  readonly files: number;
  readonly seenBefore: boolean;
}

const saved = process.env.PI_CODING_AGENT_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = saved;
});

describe("checkReader's command form", () => {
  it("passes the root as the last argument by default, under <home>/.pi/agent/sessions", async () => {
    const script = probeScript();
    const report = await checkReader(
      { command: process.execPath, args: [script], parse: (out) => JSON.parse(out) as Probe },
      (p, folder, root) => {
        expect(p.args).toEqual([root]);
        expect(root).toBe(join(p.home, ".pi", "agent", "sessions"));
        expect(basename(root)).toBe("sessions");
        expect(p.files).toBe(folder.files.length);
        return true;
      },
      { numRuns: 5, log: false },
    );
    expect(report.error).toBeUndefined();
  });

  it("names the root in an environment variable, or lets the tool find it from HOME", async () => {
    const script = probeScript();
    process.env.PI_CODING_AGENT_DIR = "/somewhere/else";
    const byEnv = await checkReader(
      {
        command: process.execPath,
        args: [script],
        env: { PROBE_ROOT: "{root}" },
        parse: (out) => JSON.parse(out) as Probe,
      },
      (p, folder, root) =>
        p.args.length === 0 && p.root === root && p.files === folder.files.length,
      { numRuns: 5, log: false },
    );
    expect(byEnv.failed).toBe(false);
    // No argument at all: the tool reads ~/.pi/agent/sessions of the run's own, fresh home
    // (the marker it leaves in its home is never seen by the next run), and the inherited
    // PI_CODING_AGENT_DIR is not passed on.
    const byHome = await checkReader(
      {
        command: process.execPath,
        args: [script],
        appendRoot: false,
        parse: (out) => JSON.parse(out) as Probe,
      },
      (p, folder, root) =>
        p.root === root && !p.seenBefore && p.agentDir === null && p.files === folder.files.length,
      { numRuns: 5, log: false },
    );
    expect(byHome.failed).toBe(false);
    const agentDir = await checkReader(
      {
        command: process.execPath,
        args: [script, "{agentDir}/sessions"],
        env: { PI_CODING_AGENT_DIR: "{agentDir}" },
        parse: (out) => JSON.parse(out) as Probe,
      },
      (p, _folder, root) => p.args[0] === root && p.agentDir === join(p.home, ".pi", "agent"),
      { numRuns: 3, log: false },
    );
    expect(agentDir.failed).toBe(false);
  });

  it("stops a command at timeoutMs and reports it", async () => {
    const report = await checkReader(
      {
        command: process.execPath,
        args: ["-e", "setInterval(() => {}, 1000)"],
        timeoutMs: 300,
        parse: () => 0,
      },
      () => true,
      { numRuns: 1, shrinkTimeLimitMs: 0, log: false },
    );
    expect(report.failed).toBe(true);
    expect(report.error).toMatch(/timed out after 300 ms \(timeoutMs\)/);
  });

  it("parses the output of the exit codes listed in exitCodes, and fails on others", async () => {
    const exitsOne = {
      command: process.execPath,
      args: ["-e", "console.log('problems: 2'); process.exit(1)"],
      parse: (out: string, run: { code: number }) => ({ out: out.trim(), code: run.code }),
    };
    const listed = await checkReader(
      { ...exitsOne, exitCodes: [0, 1] },
      (r) => r.out === "problems: 2" && r.code === 1,
      { numRuns: 3, log: false },
    );
    expect(listed.failed).toBe(false);
    const strict = await checkReader(exitsOne, () => true, {
      numRuns: 1,
      shrinkTimeLimitMs: 0,
      log: false,
    });
    expect(strict.error).toMatch(/exit 1; exitCodes 0/);
  });
});

describe("checkReader's report", () => {
  it("counts its shrinks, and the folder written out with writeFolder fails the reader again", async () => {
    let calls = 0;
    const counted = (root: string) => {
      calls++;
      return sumEverything(root);
    };
    const report = await checkReader(counted, sameCount, {
      numRuns: 200,
      seed: 7,
      log: false,
      shrinkTimeLimitMs: Number.POSITIVE_INFINITY, // so that it shrinks on a slow machine too
    });
    expect(report.failed).toBe(true);
    expect(report.numShrinks).toBeGreaterThan(0);
    // numRuns counts the folders generated until the failure, not the shrinking steps.
    expect(report.numRuns).toBeLessThan(200);
    expect(calls).toBeGreaterThan(report.numRuns + report.numShrinks);
    expect(report.shrinkStopped).toBe(false);
    expect(report.text).toContain(`shrunk ${report.numShrinks} time(s)`);
    expect(report.text).toContain("writeFolder(report.folder, dir)");
    const dir = join(tempDir(), "sessions");
    mkdirSync(dir);
    writeFolder(report.folder as SessionFolder, dir);
    expect(sameCount(sumEverything(dir), report.folder as SessionFolder)).toBe(false);
  });

  it("stops shrinking at shrinkTimeLimitMs and says so", async () => {
    const report = await checkReader(sumEverything, sameCount, {
      numRuns: 200,
      seed: 7,
      shrinkTimeLimitMs: 0,
      log: false,
    });
    expect(report.failed).toBe(true);
    expect(report.numShrinks).toBe(0);
    expect(report.shrinkStopped).toBe(true);
    expect(report.text).toMatch(/shrinking stopped after 0 ms \(shrinkTimeLimitMs\)/);
  });

  it("says when it cut a line, and how to see it whole", async () => {
    const report = await checkReader(
      () => 0,
      () => false,
      {
        numRuns: 1,
        shrinkTimeLimitMs: 0,
        maxLineLength: 40,
        folder: { minSessions: 1, maxEntries: 3, values: ["long-lines"] },
        log: false,
      },
    );
    expect(report.text).toMatch(/… \(\d+ characters\)/);
    expect(report.text).toMatch(/line\(s\) longer than 40 characters cut here; writeFolder/);
  });
});
