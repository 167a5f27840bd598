/**
 * Unreadable is not empty. Run as an ordinary user — as root, permission bits do not stop
 * reads, so then the bin runs as `nobody` — against a sessions root, project folders and files
 * with their read permission taken away: a root that cannot be read is exit 2 with one line
 * (never "no sessions", exit 1), for every command; a folder or file that cannot be read is
 * named in one line on stderr, exit 2, while everything else is still read and reported; and
 * `index --verify` never says "no problems" about what it could not look at. Also here:
 * `check --repair` and a read-only file (refused unless `--force`, which keeps mode, owner and
 * group), and a file that starts with a BOM.
 */

import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { isRoot, unprivileged } from "@pi-sessions/test-utils/messy-files";
import { describe, expect, it, onTestFinished } from "vitest";
import { CORPUS, copyCorpus, projectDir } from "./helpers/fixtures.js";
import { type BinResult, runBin } from "./helpers/run-bin.js";

/** A sessions root an unprivileged user can read, with one good session in it. */
function readableRoot(): { base: string; root: string; good: string; index: string } {
  const base = tempDir();
  chmodSync(base, 0o755);
  const root = join(base, "sessions");
  const good = copyCorpus(root, [CORPUS.branched])[CORPUS.branched] as string;
  for (const path of [root, join(good, "..")]) chmodSync(path, 0o755);
  chmodSync(good, 0o644);
  // The index lives where the unprivileged user may write it.
  const cache = join(base, "cache");
  mkdirSync(cache);
  chmodSync(cache, 0o777);
  const index = join(cache, "index.sqlite");
  return { base, root, good, index };
}

/** Takes read (and search) permission from `path` until the test ends. */
function lock(path: string, mode = 0o000): void {
  const was = statSync(path).mode & 0o7777;
  chmodSync(path, mode);
  onTestFinished(() => chmodSync(path, was));
}

/** Runs the bin as an unprivileged user, with the index in a place that user may write. */
function runAsUser(args: readonly string[], index: string): Promise<BinResult> {
  return runBin(args, { user: unprivileged(), env: { PI_SESSIONS_INDEX: index } });
}

/** stderr lines. */
const lines = (text: string) => text.split("\n").filter((l) => l !== "");

describe("a sessions root that cannot be read", () => {
  it("is exit 2 with one line for every command, never 'no sessions'", async () => {
    const { root, index } = readableRoot();
    lock(root);
    const commands = [
      ["ls"],
      ["ls", "--all"],
      ["ls", "--all", "--no-index"],
      ["check"],
      ["check", "--repair"],
      ["usage", "--all"],
      ["tree", "some-name"],
      ["context", "some-name"],
      ["export", "some-name"],
      ["migrate", "--dry-run", root],
      ["index"],
      ["index", "--verify"],
      ["search", "upload"],
    ];
    for (const args of commands) {
      const r = await runAsUser([...args, "--dir", root], index);
      const what = args.join(" ");
      expect(r.code, `${what}: ${r.stderr}`).toBe(2);
      expect(r.stdout, what).toBe("");
      expect(lines(r.stderr), what).toEqual([
        expect.stringMatching(/^pi-sessions: cannot read .*: permission denied$/),
      ]);
    }
  });

  it("the default root (no --dir) that cannot be read is exit 2 too", async () => {
    const { base, root, index } = readableRoot();
    lock(root);
    const env = { PI_CODING_AGENT_DIR: base, PI_SESSIONS_INDEX: index };
    // `<agent dir>/sessions` is the root.
    for (const args of [
      ["ls", "--no-index", "--all"],
      ["ls", "--no-index"],
      ["check"],
      ["usage", "--all"],
    ]) {
      const r = await runBin(args, { user: unprivileged(), env });
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(2);
      expect(lines(r.stderr)).toEqual([`pi-sessions: cannot read ${root}: permission denied`]);
    }
  });
});

describe("a project folder that cannot be read", () => {
  it("is named in one line by ls, check, usage, migrate and index; the rest is still read (exit 2)", async () => {
    const { root, good, index } = readableRoot();
    const locked = projectDir(root, "/home/dev/secret");
    writeFileSync(join(locked, "s.jsonl"), readFileSync(good));
    lock(locked);
    const said = `pi-sessions: cannot read ${locked}: permission denied (a folder: its sessions are left out)`;
    const cases: [string[], (r: BinResult) => void][] = [
      [["ls", "--all", "--no-index"], (r) => expect(r.stdout).toContain("1 session,")],
      [
        ["check"],
        (r) =>
          expect(r.stdout).toContain(
            "checked 1 file: 0 with problems (0 problems, 0 fixable); could not read 1",
          ),
      ],
      [["usage", "--all"], (r) => expect(r.stdout).toMatch(/^1 session in /)],
      [["migrate", "--dry-run", root], (r) => expect(r.stdout).toContain("1 file(s)")],
      [["index"], (r) => expect(r.stdout).toContain("indexed 1 session")],
      [
        ["index", "--verify"],
        (r) => {
          expect(r.stdout).not.toMatch(/; no problems$/m);
          expect(r.stdout).toContain("1 could not be read");
        },
      ],
    ];
    for (const [args, check] of cases) {
      const r = await runAsUser([...args, "--dir", root], index);
      const what = args.join(" ");
      expect(r.code, `${what}: ${r.stderr}`).toBe(2);
      expect(
        lines(r.stderr).filter((l) => l.includes(locked)),
        what,
      ).toEqual([said]);
      check(r);
    }
  });
});

describe("a session file that cannot be read", () => {
  it("check of its folder names it in one line (exit 2); check of the file itself is one line, exit 2", async () => {
    const { root, good, index } = readableRoot();
    const secret = join(good, "..", "secret.jsonl");
    writeFileSync(secret, readFileSync(good));
    lock(secret);
    const all = await runAsUser(["check", "--dir", root], index);
    expect(all.code).toBe(2);
    expect(lines(all.stderr)).toEqual([`pi-sessions: cannot read ${secret}: permission denied`]);
    expect(all.stdout).toContain("could not read 1");
    const one = await runAsUser(["check", secret, "--dir", root], index);
    expect(one.code).toBe(2);
    expect(one.stdout).toBe("");
    expect(lines(one.stderr)).toEqual([`pi-sessions: cannot read ${secret}: permission denied`]);
  });
});

describe("check --repair and a read-only file", () => {
  it("refuses in one line (exit 2) unless --force, which keeps its mode, owner and group", async () => {
    const { good } = readableRoot();
    const torn = join(good, "..", "torn.jsonl");
    const text = readFileSync(good, "utf8").slice(0, -1); // the final newline is missing
    writeFileSync(torn, text);
    chmodSync(torn, 0o444);
    if (isRoot()) chownSync(torn, 65534, 65534);
    const before = statSync(torn);
    const refused = await runBin(["check", "--repair", torn]);
    expect(refused.code).toBe(2);
    expect(lines(refused.stderr)).toEqual([
      `pi-sessions: not rewriting ${torn}: it is read-only (mode 0444); add --force to rewrite it anyway (its mode, owner and group are kept)`,
    ]);
    expect(readFileSync(torn, "utf8")).toBe(text);
    expect(readdirSync(join(torn, "..")).filter((n) => n.endsWith(".bak"))).toEqual([]);
    const forced = await runBin(["check", "--repair", "--force", torn]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(torn, "utf8")).toBe(`${text}\n`);
    const after = statSync(torn);
    expect(after.mode & 0o7777).toBe(0o444);
    expect([after.uid, after.gid]).toEqual([before.uid, before.gid]);
    const [backup] = readdirSync(join(torn, "..")).filter((n) => n.endsWith(".bak"));
    const kept = statSync(join(torn, "..", backup as string));
    expect([kept.mode & 0o7777, kept.uid, kept.gid]).toEqual([0o444, before.uid, before.gid]);
    expect(existsSync(torn)).toBe(true);
  });
});

describe("a file that starts with a BOM", () => {
  it("is rejected as pi rejects it, and the message says BOM", async () => {
    const { good } = readableRoot();
    const bom = join(good, "..", "bom.jsonl");
    writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(good)]));
    const check = await runBin(["check", bom]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/not-a-session .*byte order mark \(BOM\)/);
    for (const command of ["tree", "context"]) {
      const r = await runBin([command, bom, "--no-index"]);
      expect(r.code).toBe(2);
      expect(lines(r.stderr)).toEqual([
        expect.stringMatching(
          /^pi-sessions: .* is not a pi session: it starts with a UTF-8 byte order mark \(BOM\)/,
        ),
      ]);
    }
  });
});
