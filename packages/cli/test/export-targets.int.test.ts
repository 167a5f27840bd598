/**
 * `export -o FILE` at every kind of target, through the real bin: a new path (atomic, its temp
 * file never named `*.jsonl`), an existing file (refused without --force, replaced keeping its
 * mode with it), a pi session (refused even with --force), the source itself, a symlink to a
 * file (the file is replaced, the link stays), a FIFO and a symlink to one (written into, as a
 * redirect would), a null device (stays a device), stdout by each of its names, to a pipe and
 * to a redirected file (the content lands there, the note goes to stderr), and what cannot
 * take an export (a directory, a socket, a dangling symlink): one line, exit 2, nothing
 * touched. No test writes at a system path as root (see `nullDevice`).
 */

import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { isRoot, makeFifo, makeSocket } from "@pi-sessions/test-utils/messy-files";
import { beforeEach, describe, expect, it } from "vitest";
import { type TempRoot, tempRoot, writeDemoSession } from "./export-fixtures.js";
import { readFifoWhile } from "./helpers/fifo.js";
import { binCommand, CLI_DIR, runBin } from "./helpers/run-bin.js";

/**
 * A character device to write to. As root, a private one (`mknod`, the numbers of /dev/null)
 * in the scratch directory: a regression that renamed over its target must never get to
 * replace the system's /dev/null, as `-o` once did. Without root, /dev/null itself, which such
 * a regression could not replace (no write permission on /dev).
 */
function nullDevice(dir: string): string {
  if (!isRoot()) return "/dev/null";
  const path = join(dir, "null");
  execFileSync("mknod", [path, "c", "1", "3"]);
  return path;
}

/**
 * Names of this process's stdout. As root, none under /dev itself (see {@link nullDevice}): a
 * path in /proc cannot be renamed over, nor can our own symlink harm anyone; without root,
 * /dev/stdout too.
 */
function stdoutNames(link: string): string[] {
  const names = ["/dev/fd/1", "/proc/self/fd/1", link];
  return isRoot() ? names : [...names, "/dev/stdout"];
}

let tmp: TempRoot;
let source: string;
/** The Markdown export as stdout gets it without -o: what every target must receive. */
let expected: string;

beforeEach(async () => {
  tmp = tempRoot();
  source = writeDemoSession(tmp.project).path;
  const r = await runBin(["export", source]);
  expect(r.code).toBe(0);
  expected = r.stdout;
});

const wrote = /^wrote \d+ entries \(branch to \w+\) as md to /;

describe("export -o to files", () => {
  it("a new path appears complete; no name but the target ends in .jsonl meanwhile", async () => {
    const out = join(tmp.scratch, "new.jsonl");
    const seen = new Set<string>();
    const watcher = watch(tmp.scratch, (_event, name) => {
      if (name !== null) seen.add(String(name));
    });
    const r = await runBin(["export", source, "--format", "jsonl", "-o", out]);
    // Let the last inotify events arrive before the watcher closes.
    await new Promise((done) => setTimeout(done, 100));
    watcher.close();
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(out)).toBe(true);
    const temps = [...seen].filter((name) => name !== "new.jsonl");
    expect(temps.length, "the temp file was seen").toBeGreaterThan(0);
    for (const name of temps) expect(name.endsWith(".jsonl"), name).toBe(false);
    expect(readdirSync(tmp.scratch)).toEqual(["new.jsonl"]);
  });

  it("an existing file is refused without --force and replaced with it, keeping its mode", async () => {
    const out = join(tmp.scratch, "notes.md");
    writeFileSync(out, "my notes\n");
    chmodSync(out, 0o640);
    const refused = await runBin(["export", source, "-o", out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `pi-sessions: refusing to overwrite the existing file ${out} (add --force to replace it)\n`,
    );
    expect(readFileSync(out, "utf8")).toBe("my notes\n");
    const forced = await runBin(["export", source, "-o", out, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(wrote);
    expect(readFileSync(out, "utf8")).toBe(expected);
    expect(statSync(out).mode & 0o777).toBe(0o640);
  });

  it("a pi session file is never replaced, not even with --force; nor is the source", async () => {
    const other = writeDemoSession(tmp.project, { seed: 99 }).path;
    const before = readFileSync(other);
    for (const force of [[], ["--force"]]) {
      const r = await runBin(["export", source, "--format", "jsonl", "-o", other, ...force]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^pi-sessions: refusing to overwrite .*: it is a pi session file/);
      expect(r.stderr.split("\n")).toHaveLength(2);
      const self = await runBin(["export", source, "-o", source, ...force]);
      expect(self.code).toBe(2);
      expect(self.stderr).toMatch(/refusing to overwrite the session itself/);
    }
    expect(readFileSync(other).equals(before)).toBe(true);
  });

  it("through a symlink to a file, the file is replaced (with --force) and the link stays", async () => {
    const real = join(tmp.scratch, "real.md");
    const link = join(tmp.scratch, "link.md");
    writeFileSync(real, "old\n");
    chmodSync(real, 0o604);
    symlinkSync(real, link);
    const refused = await runBin(["export", source, "-o", link]);
    expect(refused.code).toBe(2);
    expect(readFileSync(real, "utf8")).toBe("old\n");
    const forced = await runBin(["export", source, "-o", link, "--force"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe(expected);
    expect(statSync(real).mode & 0o777).toBe(0o604);
  });
});

describe("export -o into pipes and devices", () => {
  it("a FIFO and a symlink to one get the export written into them and stay what they are", async () => {
    const fifo = makeFifo(join(tmp.scratch, "pipe.jsonl"));
    const link = join(tmp.scratch, "to-pipe.md");
    symlinkSync(fifo, link);
    for (const target of [fifo, link]) {
      const { result, text } = await readFifoWhile(fifo, runBin(["export", source, "-o", target]));
      const r = await result;
      expect(r.code, r.stderr).toBe(0);
      expect(text).toBe(expected);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(wrote);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("a null device takes it and stays a character device", async () => {
    const device = nullDevice(tmp.scratch);
    const r = await runBin(["export", source, "-o", device]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(wrote);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it("stdout by every name (/dev/fd/1, /proc/self/fd/1, a symlink to it, /dev/stdout) gets it; the note goes to stderr", async () => {
    const link = join(tmp.scratch, "stdout");
    symlinkSync("/proc/self/fd/1", link);
    for (const target of stdoutNames(link)) {
      const r = await runBin(["export", source, "-o", target]);
      expect(r.code, `${target}: ${r.stderr}`).toBe(0);
      expect(r.stdout, target).toBe(expected);
      expect(r.stderr, target).toMatch(wrote);
    }
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("stdout redirected to an existing file gets it (no --force: it is a descriptor)", async () => {
    const out = join(tmp.scratch, "redirected.md");
    writeFileSync(out, "");
    const fd = openSync(out, "a");
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [...binCommand(), "export", source, "-o", "/proc/self/fd/1"],
        { cwd: CLI_DIR, stdio: ["ignore", fd, "ignore"] },
      );
      child.on("error", reject);
      child.on("close", resolve);
    });
    closeSync(fd);
    expect(code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(expected);
  });
});

describe("export -o refusals", () => {
  it("a directory, a socket and a dangling symlink are refused in one line, exit 2", async () => {
    const server = await makeSocket(join(tmp.scratch, "sock"));
    try {
      symlinkSync(join(tmp.scratch, "nowhere"), join(tmp.scratch, "dangling.md"));
      const cases: [string, RegExp][] = [
        [tmp.scratch, /refusing to write .*: it is a directory$/],
        [join(tmp.scratch, "sock"), /refusing to write .*: it is a socket$/],
        [join(tmp.scratch, "dangling.md"), /refusing to write .*: a dangling symbolic link$/],
      ];
      for (const [target, reason] of cases) {
        const r = await runBin(["export", source, "-o", target]);
        expect(r.code, target).toBe(2);
        expect(r.stdout).toBe("");
        expect(r.stderr.trimEnd(), target).toMatch(reason);
        expect(r.stderr.split("\n")).toHaveLength(2);
      }
      expect(lstatSync(join(tmp.scratch, "sock")).isSocket()).toBe(true);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it("a path in a folder that does not exist, or under a file, is refused in words, naming no temp file", async () => {
    writeFileSync(join(tmp.scratch, "plain.txt"), "x");
    const cases: [string, string][] = [
      [
        join(tmp.scratch, "nodir", "x.md"),
        `its folder ${join(tmp.scratch, "nodir")} does not exist`,
      ],
      [join(tmp.scratch, "plain.txt", "x.md"), "not a directory"],
    ];
    for (const [target, reason] of cases) {
      const r = await runBin(["export", source, "-o", target]);
      expect(r.code, target).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trimEnd()).toBe(`pi-sessions: cannot write ${target}: ${reason}`);
    }
    expect(existsSync(join(tmp.scratch, "nodir"))).toBe(false);
  });
});
