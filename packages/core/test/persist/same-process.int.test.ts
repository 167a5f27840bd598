/**
 * pi's own same-process flows (SPEC W7): pi never closes a session manager, and it opens a new
 * one on a file this process wrote before whenever it resumes a session. The newest manager
 * that writes takes the file over; an older one that appends afterwards gets
 * `SessionConflictError` and changes nothing; descriptors and lock refresh timers stay one per
 * session file however many managers were abandoned. These are the flows that once failed with
 * `SessionLockedError` naming our own pid; pi's runtime drives them too in `test/pi-runtime`.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { SessionConflictError, SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { assistant, tempDir, user } from "./helpers.js";

/** A flushed session in `dir`, never closed (as pi leaves it). */
function written(dir: string, text: string): SessionManager {
  const sm = SessionManager.create("/work/project", dir);
  sm.appendMessage(user(text));
  sm.appendMessage(assistant(`${text}: answered`)); // read back by role (array content)
  return sm;
}

/** Open descriptors of this process that point at `path` (Linux: /proc/self/fd). */
function fdsOn(path: string): number {
  const target = realpathSync(path);
  let count = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === target) count++;
    } catch {
      // Closed between the listing and the readlink (the listing's own descriptor).
    }
  }
  return count;
}

/** Active `setInterval`/`setTimeout` handles of this process. */
const timers = (): number =>
  process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

/** The entries a fresh manager reads back from `file`, by message text or type. */
function readBack(file: string): string[] {
  const sm = SessionManager.open(file);
  const out = sm.getEntries().map((e) => {
    if (e.type !== "message") return e.type;
    const content = (e.message as { content?: unknown }).content;
    return typeof content === "string" ? content : e.message.role;
  });
  expect(sm.getLoadDiagnostics()).toEqual([]);
  return out;
}

describe("pi's same-process flows (W7)", () => {
  it("/new, then /resume back to the first session: the resumed manager appends", () => {
    const dir = tempDir();
    const first = written(dir, "one");
    const file1 = first.getSessionFile() as string;
    const second = written(dir, "two"); // /new: pi makes a new manager, the first stays open
    const resumed = SessionManager.open(file1); // /resume back
    resumed.appendMessage(user("one again"));
    expect(readBack(file1)).toEqual(["one", "assistant", "one again"]);
    const back = SessionManager.open(second.getSessionFile() as string);
    back.appendMessage(user("two again"));
    expect(readBack(second.getSessionFile() as string)).toEqual(["two", "assistant", "two again"]);
  });

  it("open() of a file this process wrote, then a prompt, a label and an extension entry", () => {
    const dir = tempDir();
    const writer = written(dir, "q");
    const file = writer.getSessionFile() as string;
    const sm = SessionManager.open(file);
    const u = sm.appendMessage(user("after reopen"));
    sm.appendCustomEntry("ext-state", { restored: true }); // an extension's session_start write
    sm.appendLabelChange(u, "resumed");
    sm.appendMessage(assistant("reply"));
    expect(readBack(file)).toEqual([
      "q",
      "assistant",
      "after reopen",
      "custom",
      "label",
      "assistant",
    ]);
  });

  it("SessionInfo.modified follows the newest append of a second manager on the file", async () => {
    const dir = tempDir();
    const first = written(dir, "q");
    const file = first.getSessionFile() as string;
    const second = SessionManager.open(file);
    const later = Date.parse("2031-05-05T10:00:00.000Z");
    second.appendMessage(user("later", later));
    const [info] = await SessionManager.list("/work/project", dir);
    expect(info?.path).toBe(file);
    expect(info?.modified.getTime()).toBe(later);
  });

  it("an older manager that appends after the takeover conflicts and changes nothing", () => {
    const dir = tempDir();
    const old = written(dir, "q");
    const file = old.getSessionFile() as string;
    const fresh = SessionManager.open(file);
    fresh.appendMessage(user("fresh"));
    const bytes = readFileSync(file, "utf8");
    const entries = JSON.stringify(old.getEntries());
    const leaf = old.getLeafId();
    expect(() => old.appendMessage(user("old"))).toThrow(SessionConflictError);
    expect(() => old.appendLabelChange(leaf as string, "x")).toThrow(SessionConflictError);
    expect(readFileSync(file, "utf8")).toBe(bytes);
    expect(JSON.stringify(old.getEntries())).toBe(entries);
    expect(old.getLeafId()).toBe(leaf);
    fresh.appendMessage(user("fresh again"));
    expect(readBack(file)).toEqual(["q", "assistant", "fresh", "fresh again"]);
  });

  it("the old session's shutdown write after a resume opened the file: the resumed manager continues from it", () => {
    const dir = tempDir();
    const old = written(dir, "q");
    const file = old.getSessionFile() as string;
    const resumed = SessionManager.open(file); // pi opens the new manager first…
    const reasons: string[] = [];
    resumed.events.on("sessionSwitched", (e) => reasons.push(e.reason));
    const shutdown = old.appendCustomEntry("ext-state", { saved: true }); // …then shuts the old one down
    const id = resumed.appendMessage(user("after resume"));
    expect(resumed.getEntry(id)?.parentId).toBe(shutdown);
    expect(reasons).toEqual(["reload"]);
    expect(readBack(file)).toEqual(["q", "assistant", "custom", "after resume"]);
    expect(() => old.appendMessage(user("old again"))).toThrow(SessionConflictError);
  });

  it("a reload keeps a leaf the resumed manager had moved off the tip", () => {
    const dir = tempDir();
    const old = written(dir, "q");
    const file = old.getSessionFile() as string;
    const resumed = SessionManager.open(file);
    const first = resumed.getEntries()[0]?.id as string;
    resumed.branch(first);
    old.appendCustomEntry("ext-state", { saved: true });
    const id = resumed.appendMessage(user("on the branch"));
    expect(resumed.getEntry(id)?.parentId).toBe(first);
    expect(resumed.getEntries()).toHaveLength(4);
  });

  it("1,000 managers opened and abandoned on one file keep one descriptor and one refresh timer", () => {
    const dir = tempDir();
    const first = written(dir, "q");
    const file = first.getSessionFile() as string;
    const timersBefore = timers();
    expect(fdsOn(file)).toBe(1);
    for (let i = 0; i < 1000; i++) {
      SessionManager.open(file).appendMessage(user(`turn ${i}`));
      expect(fdsOn(file)).toBe(1);
    }
    expect(timers()).toBe(timersBefore);
    expect(readdirSync(dir).filter((f) => f.endsWith(".lock"))).toHaveLength(1);
    const back = readBack(file);
    expect(back).toHaveLength(1002);
    expect(back.at(-1)).toBe("turn 999");
  });
});
