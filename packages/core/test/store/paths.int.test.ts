import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  defaultSessionDirPath,
  encodeCwd,
  encodeResolvedCwd,
  ensureDir,
  getAgentDir,
  getDefaultSessionDir,
  getSessionsRoot,
  sessionFileName,
} from "../../src/store/paths.js";
import { modeOf, tempDir } from "./helpers.js";

/** The reference's exported directory helper (black box, loaded by file path). */
type ReferenceDirFn = (cwd: string, agentDir?: string) => string;
const referenceUrl = new URL(
  "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
);

let savedUmask = 0;
beforeAll(() => {
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
});

describe("encodeCwd (SPEC §1.2)", () => {
  it.each([
    ["/home/u/proj", "--home-u-proj--"],
    ["/", "----"],
    ["C:\\Users\\me\\proj", "--C--Users-me-proj--"],
    ["/home/u/my proj:x\\y", "--home-u-my proj-x-y--"],
    ["/a/b", "--a-b--"],
    ["/a-b", "--a-b--"],
    ["\\\\server\\share", "---server-share--"],
    ["/srv/données/é.v2", "--srv-données-é.v2--"],
  ])("encodes the resolved path %j as %j", (path, expected) => {
    expect(encodeResolvedCwd(path)).toBe(expected);
  });

  it("encodes the POSIX rows of the table after resolving", () => {
    expect(encodeCwd("/home/u/proj")).toBe("--home-u-proj--");
    expect(encodeCwd("/")).toBe("----");
    expect(encodeCwd("/home/u/my proj:x\\y")).toBe("--home-u-my proj-x-y--");
  });

  it("resolves ~, ~/, file:// URLs and relative paths, and normalises", () => {
    const home = encodeResolvedCwd(homedir());
    expect(encodeCwd("~")).toBe(home);
    expect(encodeCwd("~/")).toBe(home);
    expect(encodeCwd("~/x/y")).toBe(encodeResolvedCwd(join(homedir(), "x/y")));
    expect(encodeCwd("file:///tmp/a%20b")).toBe("--tmp-a b--");
    expect(encodeCwd("rel/dir")).toBe(encodeResolvedCwd(resolve("rel/dir")));
    expect(encodeCwd("/a//b/./c/../d/")).toBe("--a-b-d--");
  });
});

describe("session directories", () => {
  it("matches the reference's getDefaultSessionDir for every kind of cwd", async () => {
    const reference = (await import(referenceUrl.href)) as { getDefaultSessionDir: ReferenceDirFn };
    const agentDir = tempDir();
    const cwds = [
      "/home/u/proj",
      "/",
      "/home/u/my proj:x\\y",
      "~",
      "~/work/x",
      "file:///tmp/a%20b",
      "rel/dir",
      "/a//b/./c/../d/",
      "/a-b",
      "/srv/données",
    ];
    for (const cwd of cwds) {
      const theirs = reference.getDefaultSessionDir(cwd, agentDir);
      expect(defaultSessionDirPath(cwd, agentDir), cwd).toBe(theirs);
      expect(getDefaultSessionDir(cwd, agentDir), cwd).toBe(theirs);
    }
  });

  it("defaultSessionDirPath creates nothing; getDefaultSessionDir creates 0700 directories", () => {
    const agentDir = join(tempDir(), "agent");
    const path = defaultSessionDirPath("/home/u/proj", agentDir);
    expect(path).toBe(join(agentDir, "sessions", "--home-u-proj--"));
    expect(existsSync(agentDir)).toBe(false);
    expect(getDefaultSessionDir("/home/u/proj", agentDir)).toBe(path);
    expect(modeOf(path)).toBe(0o700);
    expect(modeOf(join(agentDir, "sessions"))).toBe(0o700);
    expect(modeOf(agentDir)).toBe(0o700);
    // Idempotent: a second call on an existing directory is fine.
    expect(getDefaultSessionDir("/home/u/proj", agentDir)).toBe(path);
  });

  it("ensureDir creates missing parents 0700 and leaves an existing directory's mode alone", () => {
    const root = tempDir();
    const mine = join(root, "mine");
    mkdirSync(mine, { mode: 0o755 });
    ensureDir(join(mine, "a", "b"));
    expect(modeOf(join(mine, "a"))).toBe(0o700);
    expect(modeOf(join(mine, "a", "b"))).toBe(0o700);
    expect(modeOf(mine)).toBe(0o755);
  });

  it("getSessionsRoot is <agentDir>/sessions", () => {
    expect(getSessionsRoot("/x/agent")).toBe("/x/agent/sessions");
    expect(getSessionsRoot()).toBe(join(getAgentDir(), "sessions"));
  });
});

describe("getAgentDir (SPEC §1.1)", () => {
  it.each([
    [undefined, join(homedir(), ".pi", "agent")],
    ["", join(homedir(), ".pi", "agent")],
    ["~", homedir()],
    ["~/", homedir()],
    ["~/a//b/../c", join(homedir(), "a/c")],
    ["~x", "~x"],
    ["/opt/agent", "/opt/agent"],
    ["rel/agent", "rel/agent"],
  ])("PI_CODING_AGENT_DIR=%j gives %j", (value, expected) => {
    const env = value === undefined ? {} : { PI_CODING_AGENT_DIR: value };
    expect(getAgentDir(env)).toBe(expected);
  });

  it("reads process.env by default", () => {
    const saved = process.env.PI_CODING_AGENT_DIR;
    try {
      process.env.PI_CODING_AGENT_DIR = "/from/env";
      expect(getAgentDir()).toBe("/from/env");
    } finally {
      if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = saved;
    }
  });
});

describe("sessionFileName (SPEC §1.3)", () => {
  it("replaces every : and . of the timestamp with -", () => {
    expect(
      sessionFileName("2024-12-03T14:00:00.000Z", "0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b"),
    ).toBe("2024-12-03T14-00-00-000Z_0193a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b.jsonl");
    expect(sessionFileName("2025-01-01T00:00:00.123Z", "a..b")).toBe(
      "2025-01-01T00-00-00-123Z_a..b.jsonl",
    );
  });

  it("matches the file name the reference gives a written session", async () => {
    const reference = (await import(referenceUrl.href)) as {
      SessionManager: {
        create(
          cwd: string,
          dir: string,
        ): {
          appendMessage(m: unknown): string;
          getSessionFile(): string;
          getHeader(): { timestamp: string; id: string };
        };
      };
    };
    const dir = tempDir();
    const manager = reference.SessionManager.create("/tmp", dir);
    manager.appendMessage({ role: "user", content: "hi", timestamp: 1 });
    const header = manager.getHeader();
    expect(manager.getSessionFile()).toBe(join(dir, sessionFileName(header.timestamp, header.id)));
  });
});
