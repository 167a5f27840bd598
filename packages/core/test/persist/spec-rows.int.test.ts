import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir, user } from "./helpers.js";

/**
 * SPEC §12 rows whose regression tests would otherwise only be found under other names:
 * W18 (id length), W22 (permissions), W23 (discovery creates nothing). The others are
 * labelled in place (grep the suite for `W<n>`).
 */
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;
afterEach(() => {
  if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
});

describe("SPEC §12 rows W18, W22, W23", () => {
  it("W18: an id too long for a file name is refused before anything is written", () => {
    const dir = tempDir();
    expect(() => SessionManager.create("/p", dir, { id: "a".repeat(240) })).toThrow(
      "Session id is too long for a file name",
    );
    const ok = SessionManager.create("/p", dir, { id: "a".repeat(200) });
    ok.appendMessage(user("fits"));
    expect(existsSync(ok.getSessionFile() as string)).toBe(true);
    ok.close();
  });

  it("W22: session files are 0600 and the directories we create are 0700", () => {
    process.env.PI_CODING_AGENT_DIR = tempDir();
    const sm = SessionManager.create("/home/u/proj");
    sm.appendMessage(user("secret"));
    const file = sm.getSessionFile() as string;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(sm.getSessionDir()).mode & 0o777).toBe(0o700);
    sm.close();
  });

  it("W23: list, listAll and findById create no directory and no file", async () => {
    const agentDir = tempDir();
    process.env.PI_CODING_AGENT_DIR = agentDir;
    expect(await SessionManager.list("/home/u/elsewhere")).toEqual([]);
    expect(await SessionManager.listAll()).toEqual([]);
    expect(SessionManager.findById("/home/u/elsewhere", "nope")).toBeUndefined();
    expect(readdirSync(agentDir)).toEqual([]);
    expect(existsSync(join(agentDir, "sessions"))).toBe(false);
  });
});
