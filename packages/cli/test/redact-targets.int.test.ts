/**
 * Where `redact` and `export --redact` write, and what their reports name: `-o` follows one
 * rule for both (a FIFO or device is written into, never renamed over; a session file is never
 * replaced; another file only with --force), and with `--paths` the report does not name the
 * home directory the output hides.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { readFifoWhile } from "./helpers/fifo.js";
import { runBin } from "./helpers/run-bin.js";

const GHP = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc";

/** A session under `<dir>/home/alice` whose working directory is there too. */
function session(dir: string): { path: string; home: string } {
  const home = join(dir, "home", "alice");
  mkdirSync(home, { recursive: true });
  const lines = [
    {
      type: "session",
      version: 3,
      id: "0190a000-0000-7000-8000-0000000000bb",
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: `${home}/acme`,
    },
    {
      type: "message",
      id: "a1b2c3d4",
      parentId: null,
      timestamp: "2026-01-01T00:00:01.000Z",
      message: { role: "user", content: `push with ${GHP} from ${home}/acme`, timestamp: 1 },
    },
  ];
  const path = join(home, "s.jsonl");
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return { path, home };
}

describe("-o targets: redact follows export's rules (output/output-target.ts)", () => {
  it("redact -o writes into a FIFO, which stays a FIFO; refuses a directory and another session", async () => {
    const dir = tempDir("pi-redact-target-");
    const { path } = session(dir);
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const { result, text } = await readFifoWhile(fifo, runBin(["redact", path, "-o", fifo]));
    expect((await result).code).toBe(0);
    expect(text).toContain("[REDACTED:github-token#1]");
    expect(text).not.toContain(GHP);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    const other = join(dir, "other.jsonl");
    writeFileSync(other, readFileSync(path, "utf8"));
    for (const [target, why] of [
      [dir, /refusing to write .*: it is a directory/],
      [other, /refusing to overwrite .*: it is a pi session file/],
      [path, /refusing to overwrite the session itself/],
    ] as const) {
      const r = await runBin(["redact", path, "-o", target, "--force"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(why);
    }
    expect(readFileSync(other, "utf8")).toBe(readFileSync(path, "utf8"));
  });

  it("redact -o replaces an existing file only with --force; through a symlink the file it names", async () => {
    const dir = tempDir("pi-redact-target-");
    const { path } = session(dir);
    const plain = join(dir, "plain.txt");
    writeFileSync(plain, "keep");
    const link = join(dir, "link.jsonl");
    symlinkSync(plain, link);
    const refused = await runBin(["redact", path, "-o", link]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/add --force to replace it/);
    expect(readFileSync(plain, "utf8")).toBe("keep");
    const forced = await runBin(["redact", path, "-o", link, "--force"]);
    expect(forced.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(plain, "utf8")).toContain("[REDACTED:github-token#1]");
  });

  it("export --redact -o refuses another session file; a regular file is replaced as before", async () => {
    const dir = tempDir("pi-redact-target-");
    const { path } = session(dir);
    const other = join(dir, "other.jsonl");
    writeFileSync(other, readFileSync(path, "utf8"));
    const r = await runBin(["export", path, "--redact", "--format", "jsonl", "-o", other]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing/);
    expect(readFileSync(other, "utf8")).toBe(readFileSync(path, "utf8"));
    const notes = join(dir, "notes.md");
    writeFileSync(notes, "old");
    const forced = await runBin(["export", path, "--redact", "-o", notes, "--force"]);
    expect(forced.code).toBe(0);
    expect(readFileSync(notes, "utf8")).toContain("[REDACTED:github-token#1]");
  });
});

describe("the report with --paths", () => {
  it("names the file with its home directory redacted, on stderr and in --json", async () => {
    const dir = tempDir("pi-redact-target-");
    const { path, home } = session(dir);
    const check = await runBin(["redact", path, "--paths", "--check"]);
    expect(check.code).toBe(1);
    expect(check.stderr).not.toContain(home);
    // `/home/alice` only occurs inside the working directory in the file (`cwd#1` there), so
    // the path shows the rule's placeholder without a number.
    expect(check.stderr).toContain("[REDACTED:home-dir]/s.jsonl: 2 secrets redacted");
    const json = await runBin(["redact", path, "--paths", "--json"]);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as { session: string; content: string };
    expect(json.stdout).not.toContain(home);
    expect(out.session).toMatch(/\[REDACTED:home-dir\]\/s\.jsonl$/);
    const exported = await runBin(["export", path, "--redact-paths", "--json"]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).not.toContain(home);
  });
});
