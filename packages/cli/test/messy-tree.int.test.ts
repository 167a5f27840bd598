/**
 * A sessions tree with what an untidy machine leaves in it, each named `*.jsonl`: a FIFO, a
 * listening socket, a character device (a real `mknod` node as root, else a symlink to
 * /dev/zero), a symlink to /dev/zero, a `.jsonl` directory, a dangling symlink and a symlink
 * loop — beside a real session and a damaged one. Every command that scans the tree, and every
 * command given one of those paths, ends (no reader ever opens the FIFO: a watcher would see
 * it, and unblock it), reads the real sessions, and says each odd entry in one line on stderr
 * with exit 2 where it reports problems. A child that still hangs is killed by a generous hang
 * guard and fails the test.
 */

import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import type { Server } from "node:net";
import { join, relative } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { makeDevice, makeFifo, makeSocket, watchFifos } from "@pi-sessions/test-utils/messy-files";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORPUS, copyCorpus } from "./helpers/fixtures.js";
import { type BinResult, runBin } from "./helpers/run-bin.js";

/** The hang guard: far above any run here (a few seconds), far below "forever". */
const HANG_GUARD_MS = 180_000;

let root: string;
let good: string;
let torn: string;
let server: Server;
/** Every odd entry, by name, with the reason the CLI gives for it. */
const odd = new Map<string, { path: string; reason: RegExp }>();

beforeAll(async () => {
  root = tempDir();
  good = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
  const project = join(good, "..");
  // A second session whose last line lacks its newline: something for --repair to fix.
  torn = join(project, "torn.jsonl");
  const text = readFileSync(good, "utf8").replace(
    /"id":"01a22a6a-1870-74e8-b456-77b8915db22e"/,
    '"id":"0torn000-0000-4000-8000-000000000000"',
  );
  writeFileSync(torn, text.slice(0, -1));
  const add = (name: string, path: string, reason: RegExp) => odd.set(name, { path, reason });
  add("fifo", makeFifo(join(project, "fifo.jsonl")), /a FIFO \(named pipe\), not a regular file/);
  add("root fifo", makeFifo(join(root, "top.jsonl")), /a FIFO \(named pipe\), not a regular file/);
  server = await makeSocket(join(project, "socket.jsonl"));
  add("socket", join(project, "socket.jsonl"), /a socket, not a regular file/);
  makeDevice(join(project, "device.jsonl"));
  add("device", join(project, "device.jsonl"), /a character device, not a regular file/);
  symlinkSync("/dev/zero", join(project, "zero.jsonl"));
  add("zero link", join(project, "zero.jsonl"), /a character device, not a regular file/);
  mkdirSync(join(project, "dir.jsonl"));
  add("directory", join(project, "dir.jsonl"), /a directory, not a regular file/);
  symlinkSync(join(project, "nowhere"), join(project, "dangling.jsonl"));
  add("dangling", join(project, "dangling.jsonl"), /a dangling symbolic link/);
  symlinkSync(join(project, "loop.jsonl"), join(project, "loop.jsonl"));
  add("loop", join(project, "loop.jsonl"), /a symbolic link loop/);
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

const fifos = () =>
  [...odd.values()].map((o) => o.path).filter((p) => p.includes("fifo") || p.endsWith("top.jsonl"));

/** Runs the bin with the FIFOs watched; fails if it hung or anything opened a FIFO. */
async function run(args: readonly string[]): Promise<BinResult> {
  const watch = await watchFifos(fifos());
  const r = await runBin(args, { killAfterMs: HANG_GUARD_MS });
  expect(await watch.stop(), `a FIFO was opened by: ${args.join(" ")}`).toEqual([]);
  expect(r.timedOut, `hung: ${args.join(" ")}`).toBeUndefined();
  return r;
}

/** stderr says each odd entry in exactly one line, with its reason. */
function saysEachOnce(stderr: string, names: readonly string[] = [...odd.keys()]): void {
  const lines = stderr.split("\n").filter((l) => l !== "");
  for (const name of names) {
    const { path, reason } = odd.get(name) as { path: string; reason: RegExp };
    const said = lines.filter((l) => l.includes(`${path}:`));
    expect(said, `${name} in:\n${stderr}`).toHaveLength(1);
    expect(said[0]).toMatch(/^pi-sessions: cannot read /);
    expect(said[0]).toMatch(reason);
  }
}

describe("commands that scan the tree", () => {
  it("ls --no-index --all lists the sessions and says each odd entry once (exit 2)", async () => {
    const r = await run(["ls", "--no-index", "--all", "--dir", root]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("Layout and docs");
    expect(r.stdout).toContain("2 sessions");
    saysEachOnce(r.stderr);
  });

  it("ls --no-index for the cwd says the odd entries of its folder and of the root", async () => {
    const r = await run(["ls", "--no-index", "--cwd", "/home/dev/project", "--dir", root]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("2 sessions");
    saysEachOnce(r.stderr);
  });

  it("usage --all totals the sessions and says each odd entry (exit 2; --json lists them)", async () => {
    const r = await run(["usage", "--all", "--dir", root]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^2 sessions in /);
    saysEachOnce(r.stderr);
    const json = await run(["usage", "--all", "--json", "--dir", root]);
    expect(json.code).toBe(2);
    const unreadable = JSON.parse(json.stdout).unreadable as { path: string }[];
    expect(unreadable.map((u) => u.path).sort()).toEqual(
      [...odd.values()].map((o) => o.path).sort(),
    );
  });

  it("check reports each odd entry as unreadable, once on stderr, and checks the rest (exit 2)", async () => {
    const r = await run(["check", "--dir", root]);
    expect(r.code).toBe(2);
    saysEachOnce(r.stderr);
    expect(r.stdout).toContain(`bad ${torn}: 1 problem`);
    const n = odd.size;
    expect(r.stdout).toContain(`checked ${n + 2} files: ${n + 1} with problems`);
    expect(r.stdout).toContain(`; could not read ${n} (said on stderr)`);
  });

  it("check --repair repairs the torn session and still says each odd entry (exit 2)", async () => {
    const r = await run(["check", "--repair", "--dir", root]);
    expect(r.code).toBe(2);
    saysEachOnce(r.stderr);
    expect(r.stdout).toContain("repaired 1 file");
    expect(readFileSync(torn, "utf8").endsWith("\n")).toBe(true);
  });

  it("migrate --dry-run skips each odd entry, says it once, and writes nothing (exit 2)", async () => {
    const before = readFileSync(good);
    const r = await run(["migrate", "--dry-run", root]);
    expect(r.code).toBe(2);
    saysEachOnce(r.stderr);
    expect(r.stdout).toContain(
      `${odd.size + 2} file(s): 0 to migrate, 2 already current, ${odd.size} skipped`,
    );
    expect(readFileSync(good).equals(before)).toBe(true);
  });

  it("tree, context, usage and export find a session by id prefix past the odd entries (exit 0)", async () => {
    for (const command of ["tree", "context", "usage", "export"]) {
      const index = command === "export" ? [] : ["--no-index"];
      const r = await run([command, "01a22a6a", ...index, "--dir", root]);
      expect(r.code, `${command}: ${r.stderr}`).toBe(0);
      expect(r.stderr, command).toBe("");
    }
  });
});

describe("sync", () => {
  it("copies the sessions to another root and fails each odd entry in one line (exit 1)", async () => {
    const other = tempDir();
    const r = await run(["sync", root, other]);
    expect(r.code, r.stderr).toBe(1);
    const failed = r.stdout.split("\n").filter((l) => l.startsWith("failed"));
    expect(failed).toHaveLength(odd.size);
    for (const { path, reason } of odd.values()) {
      const rel = relative(root, path);
      expect(
        failed.filter((l) => l.includes(`${rel}:`)),
        rel,
      ).toEqual([expect.stringMatching(new RegExp(`cannot read ${reason.source}`))]);
    }
    expect(readFileSync(join(other, relative(root, good)))).toEqual(readFileSync(good));
  });
});

describe("commands given an odd path", () => {
  it("tree, context, usage, export, check and migrate --dry-run refuse it in one line (exit 2)", async () => {
    const commands = [
      ["tree"],
      ["context", "--no-index"],
      ["usage", "--no-index"],
      ["export"],
      ["check"],
      ["migrate", "--dry-run"],
    ];
    for (const name of ["fifo", "socket", "device", "zero link", "dangling", "loop"]) {
      const { path, reason } = odd.get(name) as { path: string; reason: RegExp };
      for (const [command, ...rest] of commands) {
        const r = await run([command as string, path, ...rest, "--dir", root]);
        const what = `${command} ${name}`;
        expect(r.code, what).toBe(2);
        expect(r.stdout, what).toBe("");
        expect(r.stderr, what).toMatch(
          new RegExp(`^pi-sessions: cannot read .*${reason.source}\\n$`),
        );
      }
    }
  });
});
