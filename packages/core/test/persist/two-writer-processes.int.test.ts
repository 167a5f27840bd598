/**
 * A second process writes the session file behind our back (SPEC W7, W8, invariant 4): plain
 * `fs` calls, a rename over it, our own SessionManager in a child (through tsx), and a lock
 * left by a killed process. A writer that did not get in throws `SessionLockedError` or
 * `SessionConflictError` and changes neither memory nor file. Two managers of one process are
 * in `two-writers.int.test.ts`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SessionConflictError, SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { user } from "./helpers.js";
import { baseFile, expectRefused } from "./two-writer-fixtures.js";

const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** Core's lock module, which the child imports directly (it is no part of the package's entries). */
const LOCK_MODULE = new URL("../../src/store/lock.ts", import.meta.url).href;

/** Runs an ES module in a second Node process (our sources through tsx); returns stdout. */
function inChild(script: string, file: string): string {
  const r = spawnSync(
    process.execPath,
    ["--conditions=@pi-sessions/source", "--import", "tsx", "--input-type=module", "-e", script],
    {
      cwd: PACKAGE_DIR,
      env: { ...process.env, SESSION_FILE: file },
      encoding: "utf8",
    },
  );
  if (r.error) throw r.error;
  return `${r.stdout}${r.status === 0 ? "" : `\n[exit ${r.status} ${r.signal ?? ""}] ${r.stderr}`}`;
}

const foreignLine = (parentId: string) =>
  `${JSON.stringify({ type: "custom", customType: "foreign", id: "f0reign1", parentId, timestamp: "2025-01-01T00:00:00.000Z" })}\n`;

describe("a second process writes behind our back (W7)", () => {
  it("plain appendFileSync while we hold the file: our next append conflicts and writes nothing", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    sm.appendMessage(user("ours, holding the lock"));
    const line = foreignLine(sm.getLeafId() as string);
    inChild(
      `import { appendFileSync } from "node:fs"; appendFileSync(process.env.SESSION_FILE, ${JSON.stringify(line)});`,
      file,
    );
    const err = expectRefused(sm, file, () => sm.appendMessage(user("after the foreign line")));
    expect(err).toBeInstanceOf(SessionConflictError);
    expect(readFileSync(file, "utf8").endsWith(line)).toBe(true);
    sm.close();
    const again = SessionManager.open(file);
    expect(again.getLeafId()).toBe("f0reign1");
    again.close();
  });

  it("another tool replaces the file by rename (same bytes): our next append conflicts", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    sm.appendMessage(user("ours"));
    const ino = statSync(file).ino;
    inChild(
      `import { readFileSync, writeFileSync, renameSync } from "node:fs";
       const f = process.env.SESSION_FILE; writeFileSync(f + ".new", readFileSync(f)); renameSync(f + ".new", f);`,
      file,
    );
    expect(statSync(file).ino).not.toBe(ino);
    const err = expectRefused(sm, file, () => sm.appendMessage(user("into the old inode?")));
    expect(err).toBeInstanceOf(SessionConflictError);
    sm.close();
  });

  it("our SessionManager in a child is locked out while we hold the lock, and the file is untouched", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    sm.appendMessage(user("ours, holding the lock"));
    const before = readFileSync(file);
    const out = inChild(
      `import { SessionManager } from "@pi-sessions/core";
       const sm = SessionManager.open(process.env.SESSION_FILE);
       try { sm.appendMessage({ role: "user", content: "child", timestamp: 1 }); console.log("appended"); }
       catch (e) { console.log(e.name); }`,
      file,
    );
    expect(out.trim()).toBe("SessionLockedError");
    expect(readFileSync(file).equals(before)).toBe(true);
    sm.appendMessage(user("ours, still fine"));
    sm.close();
  });

  it("a child appends through our SessionManager before we take the lock: our append conflicts", () => {
    const file = baseFile();
    const sm = SessionManager.open(file); // loaded, not locked yet (reads never lock)
    const out = inChild(
      `import { SessionManager } from "@pi-sessions/core";
       const sm = SessionManager.open(process.env.SESSION_FILE);
       console.log(sm.appendMessage({ role: "user", content: "child", timestamp: 1 })); sm.close();`,
      file,
    );
    const childId = out.trim();
    expect(childId).toMatch(/^[0-9a-f]{8}$/);
    const err = expectRefused(sm, file, () => sm.appendMessage(user("ours, stale")));
    expect(err).toBeInstanceOf(SessionConflictError);
    sm.close();
    const again = SessionManager.open(file);
    expect(again.getLeafId()).toBe(childId);
    again.close();
  });

  it("a lock left by a killed process is recovered (dead pid) and our append goes through", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    const out = inChild(
      `import { acquireLock } from ${JSON.stringify(LOCK_MODULE)};
       acquireLock(process.env.SESSION_FILE); process.kill(process.pid, "SIGKILL");`,
      file,
    );
    expect(out).toContain("SIGKILL");
    expect(statSync(`${file}.lock`).isFile()).toBe(true);
    const id = sm.appendMessage(user("after the crash"));
    sm.close();
    const again = SessionManager.open(file);
    expect(again.getLeafId()).toBe(id);
    again.close();
  });
});
