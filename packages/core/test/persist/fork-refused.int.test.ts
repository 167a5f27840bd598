/**
 * `whenRefused: "fork"` (SPEC L3): when another process writes a session file — it holds the
 * lock, or it appended since we read — our append neither fails nor forks that file: it goes
 * into a new session written at once with every entry we had (their lines as they were),
 * `parentSession` naming the file, and `sessionSwitched` says so with the refusal. A newer
 * manager of this process taking a file over is no such case (pi's resume flows), and without
 * the option the refusal stays an error.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { SessionConflictError, SessionLockedError, SessionManager } from "@pi-sessions/core";
import type { SessionSwitchedEvent } from "@pi-sessions/core/internal";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, tempDir, user } from "./helpers.js";

/** A written session file with two entries, its writer closed. */
function baseFile(): string {
  const sm = SessionManager.create("/tmp/fork-refused", tempDir());
  sm.appendMessage(user("q"));
  sm.appendMessage(assistant("r"));
  sm.close();
  return sm.getSessionFile() as string;
}

const holders: ChildProcess[] = [];
afterEach(() => {
  for (const child of holders.splice(0)) child.kill();
});

/** Makes another live process hold `file`'s lock, as our writer in that process would. */
function lockByAnotherProcess(file: string): number {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  holders.push(child);
  const pid = child.pid as number;
  const holder = { pid, host: hostname(), acquiredAt: new Date().toISOString(), token: "other" };
  writeFileSync(`${file}.lock`, `${JSON.stringify(holder)}\n`);
  return pid;
}

const lines = (file: string) => readFileSync(file, "utf8").trim().split("\n");

describe('whenRefused: "fork" (SPEC L3)', () => {
  it("a lock another live process holds: the append goes into a new session forked from the file, which is untouched", () => {
    const file = baseFile();
    const before = readFileSync(file);
    const sm = SessionManager.open(file, undefined, undefined, { whenRefused: "fork" });
    const switched: SessionSwitchedEvent[] = [];
    sm.events.on("sessionSwitched", (e) => switched.push(e));
    const pid = lockByAnotherProcess(file);
    const id = sm.appendMessage(user("typed while the other pi writes"));

    expect(readFileSync(file).equals(before)).toBe(true);
    const fork = sm.getSessionFile() as string;
    expect(fork).not.toBe(file);
    const [header, ...entries] = lines(fork);
    expect(JSON.parse(header as string)).toMatchObject({
      parentSession: file,
      cwd: "/tmp/fork-refused",
    });
    // Every entry we had, as its line, then the new one.
    expect(entries.slice(0, -1)).toEqual(lines(file).slice(1));
    expect(JSON.parse(entries.at(-1) as string)).toMatchObject({
      id,
      message: { content: "typed while the other pi writes" },
    });
    expect(switched).toHaveLength(1);
    expect(switched[0]).toMatchObject({ reason: "forked", previousFile: file, file: fork });
    const refusal = switched[0]?.refusal;
    expect(refusal).toBeInstanceOf(SessionLockedError);
    expect((refusal as SessionLockedError).holder?.pid).toBe(pid);
    // The fork is ours now: later appends go on there, and reopen as one session.
    sm.appendMessage(assistant("answer"));
    sm.close();
    expect(
      SessionManager.open(fork)
        .getEntries()
        .map((e) => e.id),
    ).toEqual(sm.getEntries().map((e) => e.id));
  });

  it("lines another process appended since we read: the append goes into a fork of what we read", () => {
    const file = baseFile();
    const sm = SessionManager.open(file, undefined, undefined, { whenRefused: "fork" });
    const ours = sm.getEntries().map((e) => e.id);
    const foreign = JSON.stringify({
      type: "custom",
      customType: "x",
      id: "f0reign1",
      parentId: ours.at(-1),
      timestamp: "t",
    });
    appendFileSync(file, `${foreign}\n`);
    const afterForeign = readFileSync(file);
    sm.appendMessage(user("mine"));
    expect(readFileSync(file).equals(afterForeign)).toBe(true);
    expect(sm.getSessionFile()).not.toBe(file);
    expect(
      sm
        .getEntries()
        .map((e) => e.id)
        .slice(0, -1),
    ).toEqual(ours);
  });

  it("a newer manager of this process still refuses an older one, fork or not", () => {
    const file = baseFile();
    const older = SessionManager.open(file, undefined, undefined, { whenRefused: "fork" });
    older.appendMessage(user("older writes first"));
    const newer = SessionManager.open(file);
    newer.appendMessage(user("newer takes the file over"));
    expect(() => older.appendMessage(user("older again"))).toThrow(SessionConflictError);
    expect(older.getSessionFile()).toBe(file);
  });

  it("without the option the refusal stays an error and changes nothing", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    lockByAnotherProcess(file);
    const before = readFileSync(file);
    expect(() => sm.appendMessage(user("refused"))).toThrow(SessionLockedError);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(sm.getSessionFile()).toBe(file);
  });
});
