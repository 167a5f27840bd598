/**
 * The program as a whole, through the real entry point: exit codes with a one-line reason on
 * stderr, help and version, where sessions are read from by default, colours only when asked
 * for a terminal, and `--json` parseable on every command. Also run against the built bin by
 * `pnpm test:dist`.
 */

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { CORPUS, copyCorpus, writeSession } from "./helpers/fixtures.js";
import { binCommand, runBin } from "./helpers/run-bin.js";

/** stderr is exactly one line, `pi-sessions: <reason>`; returns it. */
function reasonLine(stderr: string): string {
  const lines = stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^pi-sessions: /);
  return lines[0] as string;
}

describe("exit codes and reasons", () => {
  it("an unknown command is exit 2 with one reason line", async () => {
    const r = await runBin(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(reasonLine(r.stderr)).toContain("unknown command 'frobnicate'");
    expect(r.stdout).toBe("");
  });

  it("an unknown option and a missing argument are exit 2", async () => {
    const unknown = await runBin(["ls", "--bogus"]);
    expect(unknown.code).toBe(2);
    expect(reasonLine(unknown.stderr)).toContain("unknown option '--bogus'");
    const missing = await runBin(["tree"]);
    expect(missing.code).toBe(2);
    expect(reasonLine(missing.stderr)).toContain("missing required argument 'session'");
  });

  it("a bad --depth is exit 2", async () => {
    const root = tempDir();
    const { [CORPUS.branched]: file } = copyCorpus(root, [CORPUS.branched]);
    for (const depth of ["0", "-1", "2.5", "x"]) {
      const r = await runBin(["tree", file as string, "--depth", depth]);
      expect(r.code, depth).toBe(2);
      expect(reasonLine(r.stderr)).toContain("expected a whole number");
    }
  });

  it("a missing file is exit 2; an unknown id is exit 1; both say why in one line", async () => {
    const root = tempDir();
    copyCorpus(root, [CORPUS.branched]);
    const missing = await runBin(["tree", "./nope.jsonl", "--dir", root]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe("pi-sessions: no such file: ./nope.jsonl");
    const unknown = await runBin(["tree", "zzzz", "--dir", root]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toContain('no session matches "zzzz"');
  });

  it("an ambiguous session prefix and a --dir that does not exist are exit 2", async () => {
    const root = tempDir();
    const header = (id: string) =>
      `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-05T10:00:00.000Z", cwd: "/p" })}\n`;
    writeSession(root, "/p", "a.jsonl", header("abc-111"));
    writeSession(root, "/p", "b.jsonl", header("abc-222"));
    const ambiguous = await runBin(["tree", "abc", "--dir", root]);
    expect(ambiguous.code).toBe(2);
    expect(reasonLine(ambiguous.stderr)).toContain('"abc" matches more than one session by id');
    const one = await runBin(["tree", "abc-2", "--dir", root, "--json"]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).id).toBe("abc-222");

    const gone = join(root, "no-such-dir");
    for (const args of [["ls", "--all"], ["check"], ["usage"], ["tree", "abc-1"]]) {
      const r = await runBin([...args, "--dir", gone]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(reasonLine(r.stderr)).toBe(`pi-sessions: --dir ${gone}: no such directory`);
      expect(r.stdout).toBe("");
    }
  });

  it("a file that is not a session is exit 2 for tree and context", async () => {
    const dir = tempDir();
    const file = join(dir, "notes.jsonl");
    writeFileSync(file, "hello\nworld\n");
    for (const command of ["tree", "context"]) {
      const r = await runBin([command, file]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("is not a pi session");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("--help and --version exit 0 and list every command", async () => {
    const help = await runBin(["--help"]);
    expect(help.code).toBe(0);
    for (const command of [
      "ls",
      "tree",
      "context",
      "check",
      "migrate",
      "usage",
      "export",
      "redact",
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    }
    const version = await runBin(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe("where sessions are read from", () => {
  it("PI_CODING_AGENT_DIR/sessions by default, --dir over it", async () => {
    const agent = tempDir();
    const { [CORPUS.branched]: file } = copyCorpus(join(agent, "sessions"), [CORPUS.branched]);
    const byEnv = await runBin(["ls", "--all", "--json"], { env: { PI_CODING_AGENT_DIR: agent } });
    expect(byEnv.code).toBe(0);
    expect(JSON.parse(byEnv.stdout).map((s: { path: string }) => s.path)).toEqual([file]);
    const empty = tempDir();
    const byDir = await runBin(["ls", "--all", "--dir", empty], {
      env: { PI_CODING_AGENT_DIR: agent },
    });
    expect(byDir.code).toBe(1);
    expect(byDir.stderr).toContain(`no sessions in ${empty}`);
  });

  it("~/.pi/agent/sessions without the variable, and the message names --dir", async () => {
    const home = tempDir();
    const r = await runBin(["ls", "--all"], { env: { HOME: home } });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `pi-sessions: no sessions in ${join(home, ".pi", "agent", "sessions")} (use --dir to read another directory)`,
    );
    const { [CORPUS.branched]: file } = copyCorpus(join(home, ".pi", "agent", "sessions"), [
      CORPUS.branched,
    ]);
    const found = await runBin(["ls", "--all", "--json"], { env: { HOME: home } });
    expect(JSON.parse(found.stdout)[0].path).toBe(file);
  });

  it("--dir and --json also work before the command name", async () => {
    const root = tempDir();
    copyCorpus(root, [CORPUS.branched]);
    const r = await runBin(["--dir", root, "--json", "ls", "--all"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
  });
});

describe("a reader that goes away", () => {
  it("ends the command quietly with exit 0 (no EPIPE stack)", async () => {
    const root = tempDir();
    const { [CORPUS.large]: file } = copyCorpus(root, [CORPUS.large]);
    const child = spawn(process.execPath, [...binCommand(), "context", file as string], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });
});

describe("colours", () => {
  it("none in a pipe, some with FORCE_COLOR, none with NO_COLOR", async () => {
    const root = tempDir();
    copyCorpus(root, [CORPUS.branched]);
    const csi = "\u001b[";
    const plain = await runBin(["tree", "01a22a6a", "--dir", root]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(csi);
    const forced = await runBin(["tree", "01a22a6a", "--dir", root], { env: { FORCE_COLOR: "1" } });
    expect(forced.stdout).toContain(csi);
    const off = await runBin(["tree", "01a22a6a", "--dir", root], {
      env: { NO_COLOR: "1" },
    });
    expect(off.stdout).not.toContain(csi);
  });
});

describe("--json on every command", () => {
  it("prints one JSON document on stdout", async () => {
    const root = tempDir();
    copyCorpus(root);
    const commands = [
      ["ls", "--all"],
      ["tree", "01a22a6a"],
      ["context", "01a22a6a"],
      ["check"],
      ["migrate", root, "--dry-run"],
      ["usage", "01a22a6a"],
      ["export", "01a22a6a", "--format", "md"],
    ];
    for (const args of commands) {
      const r = await runBin([...args, "--dir", root, "--json"]);
      expect([0, 1], args.join(" ")).toContain(r.code);
      expect(() => JSON.parse(r.stdout), args.join(" ")).not.toThrow();
    }
  });
});
