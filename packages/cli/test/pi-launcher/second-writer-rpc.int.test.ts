/**
 * Two `pi --mode rpc` processes on one session through the launcher (SPEC L3). The first writes
 * the session and keeps it; the second, opened on the same file, changes its thinking level and
 * sends a prompt. pi alone would append both to the one file (a silent fork); here the second
 * process's first write goes into a new session forked from the file, said in one line on its
 * stderr, and everything both typed is on disk: the first's turns in the original, the
 * second's in the fork, which holds the original's entries as they were when it opened them.
 */

import { readFileSync } from "node:fs";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { commonPiArgs, makeSide } from "./pi-sides.js";
import { RpcSession } from "./rpc-client.js";

const records = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown> & { message?: { content?: unknown } });
const texts = (file: string) =>
  records(file).flatMap((r) => {
    const c = r.message?.content;
    return Array.isArray(c)
      ? c.map((b: { text?: string }) => b.text ?? "")
      : typeof c === "string"
        ? [c]
        : [];
  });

describe("a second pi process on one session", () => {
  it("continues in a fork of it, says so in one line, loses nothing, and never forks the file (RPC)", async () => {
    const side = makeSide(tempDir("pi-second-rpc-"), "ours");
    const first = new RpcSession(side, commonPiArgs());
    await first.prompt("First process, first prompt.");
    const original = (await first.send({ type: "get_state" })).data as { sessionFile: string };
    const file = original.sessionFile;
    const before = records(file);

    const second = new RpcSession(side, [...commonPiArgs(), "--session", file]);
    const level = await second.send({ type: "set_thinking_level", level: "high" });
    expect(level.success).toBe(true);
    await second.prompt("Second process, typed while the first runs.");
    const forked = ((await second.send({ type: "get_state" })).data as { sessionFile: string })
      .sessionFile;
    await first.prompt("First process, second prompt.");

    const secondEnd = await second.close();
    const firstEnd = await first.close();
    expect(firstEnd.stderr).toBe("");
    expect(firstEnd.code).toBe(0);
    expect(secondEnd.code).toBe(0);
    expect(secondEnd.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        new RegExp(
          `^pi-sessions: another pi \\(pid \\d+\\) is writing ${file}; this pi continues in a new session forked from it: ${forked}$`,
        ),
      ),
    ]);

    // The original: the first process's turns only, in one line of descent.
    expect(forked).not.toBe(file);
    expect(texts(file)).toContain("First process, second prompt.");
    expect(texts(file)).not.toContain("Second process, typed while the first runs.");
    const parents = records(file)
      .slice(1)
      .map((r) => r.parentId);
    expect(new Set(parents).size).toBe(parents.length);
    // The fork: the original as the second process opened it, then its own entries.
    const fork = records(forked);
    expect(fork[0]).toMatchObject({ type: "session", parentSession: file });
    expect(fork.slice(1, before.length)).toEqual(before.slice(1));
    const own = fork.slice(before.length);
    expect(own[0]).toMatchObject({ type: "thinking_level_change", thinkingLevel: "high" });
    expect(texts(forked)).toContain("Second process, typed while the first runs.");
    expect(texts(forked)).not.toContain("First process, second prompt.");
  }, 180_000);
});
