import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acquireLock,
  type LockHolder,
  lockPathFor,
  removeStaleLock,
  SessionLockedError,
} from "../../src/store/lock.js";
import {
  deadPid,
  faultFs,
  modeOf,
  runChild,
  startChild,
  storeModuleUrl,
  tempDir,
  waitExit,
} from "./helpers.js";

let savedUmask = 0;
beforeAll(() => {
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
});

/** A session path in a fresh temp dir (the session file itself need not exist). */
function sessionPath(): string {
  return join(tempDir(), "2024-12-03T14-00-00-000Z_s.jsonl");
}

/** Writes a lock file by hand, optionally back-dated by `ageMs`. */
function plantLock(path: string, content: string, ageMs = 0): void {
  writeFileSync(lockPathFor(path), content, { mode: 0o600 });
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    utimesSync(lockPathFor(path), then, then);
  }
}

/** A holder record as another process would write it. */
function holder(pid: number, host = hostname()): string {
  return JSON.stringify({ pid, host, acquiredAt: "2024-12-03T14:00:00.000Z" } satisfies LockHolder);
}

describe("acquireLock", () => {
  it("creates <session>.lock, mode 0600, holding pid, host and acquiredAt", () => {
    const path = sessionPath();
    const lock = acquireLock(path);
    try {
      expect(lock.path).toBe(`${path}.lock`);
      expect(lock.held).toBe(true);
      expect(modeOf(lock.path)).toBe(0o600);
      const content = JSON.parse(readFileSync(lock.path, "utf8")) as LockHolder;
      expect(content.pid).toBe(process.pid);
      expect(content.host).toBe(hostname());
      expect(Date.parse(content.acquiredAt)).not.toBeNaN();
    } finally {
      lock.release();
    }
    expect(existsSync(lock.path)).toBe(false);
    expect(lock.held).toBe(false);
    lock.release(); // twice is fine
  });

  it("refuses a second writer in the same process with SessionLockedError naming the holder", () => {
    const path = sessionPath();
    const lock = acquireLock(path);
    try {
      let caught: unknown;
      try {
        acquireLock(path);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SessionLockedError);
      const locked = caught as SessionLockedError;
      expect(locked.message).toContain(`pid ${process.pid}`);
      expect(locked.message).toContain(hostname());
      expect(locked.message).toContain(lock.path);
      expect(locked.holder?.pid).toBe(process.pid);
      expect(locked.lockPath).toBe(lock.path);
    } finally {
      lock.release();
    }
    acquireLock(path).release(); // free again after release
  });

  it("refuses while a live process elsewhere holds it, and recovers once that process is killed", async () => {
    const path = sessionPath();
    const child = await startChild(
      `const { acquireLock } = await import(${JSON.stringify(storeModuleUrl("lock"))});
       acquireLock(${JSON.stringify(path)});`,
    );
    try {
      expect(() => acquireLock(path)).toThrow(SessionLockedError);
      expect(() => acquireLock(path)).toThrow(`pid ${child.pid}`);
    } finally {
      child.kill("SIGKILL");
      await waitExit(child);
    }
    // SIGKILL skips the exit hook: the lock file is still there, held by a dead pid.
    expect(existsSync(lockPathFor(path))).toBe(true);
    const lock = acquireLock(path);
    expect(JSON.parse(readFileSync(lock.path, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("is released by the exit hook when the holder exits normally", () => {
    const path = sessionPath();
    const result = runChild(
      `const { acquireLock } = await import(${JSON.stringify(storeModuleUrl("lock"))});
       acquireLock(${JSON.stringify(path)});
       const { existsSync } = await import("node:fs");
       console.log(existsSync(${JSON.stringify(lockPathFor(path))}));`,
    );
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe("true");
    expect(existsSync(lockPathFor(path))).toBe(false);
  });

  it("recovers a lock whose pid on this host is dead", () => {
    const path = sessionPath();
    plantLock(path, holder(deadPid()));
    const lock = acquireLock(path);
    expect(JSON.parse(readFileSync(lock.path, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("recovers a lock naming this pid that this process does not hold (pid reused)", () => {
    const path = sessionPath();
    plantLock(path, holder(process.pid));
    acquireLock(path).release();
  });

  it("judges another host's lock by age: fresh is held, older than staleMs is stale", () => {
    const path = sessionPath();
    plantLock(path, holder(1, "other-host.example"), 1000);
    expect(() => acquireLock(path, { staleMs: 60_000 })).toThrow(SessionLockedError);
    expect(() => acquireLock(path)).toThrow("other-host.example");
    plantLock(path, holder(1, "other-host.example"), 11 * 60 * 1000); // default staleMs: 10 min
    acquireLock(path).release();
  });

  it("treats an unreadable lock as held for a grace period, then as stale", () => {
    const path = sessionPath();
    plantLock(path, "");
    expect(() => acquireLock(path)).toThrow("unknown holder");
    plantLock(path, "{not json", 5000);
    acquireLock(path).release();
  });

  it("refreshes the lock file's mtime while held, so an idle holder does not go stale", async () => {
    const path = sessionPath();
    const lock = acquireLock(path, { staleMs: 90 });
    try {
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock.path, old, old);
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(Date.now() - statSync(lock.path).mtimeMs).toBeLessThan(1000);
    } finally {
      lock.release();
    }
  });

  it("leaves no lock file behind when writing it fails", () => {
    const path = sessionPath();
    const fs = faultFs();
    fs.faults.writeBudget = 5;
    expect(() => acquireLock(path, { fs })).toThrow(expect.objectContaining({ code: "ENOSPC" }));
    expect(existsSync(lockPathFor(path))).toBe(false);
  });

  it("release leaves a lock that is no longer ours", () => {
    const path = sessionPath();
    const lock = acquireLock(path);
    plantLock(path, holder(12345, "someone-else"));
    lock.release();
    expect(readFileSync(lockPathFor(path), "utf8")).toBe(holder(12345, "someone-else"));
  });
});

describe("removeStaleLock", () => {
  it("removes a stale lock and keeps a live one", () => {
    const path = sessionPath();
    expect(removeStaleLock(path)).toBe(false); // none
    plantLock(path, holder(deadPid()));
    expect(removeStaleLock(path)).toBe(true);
    expect(existsSync(lockPathFor(path))).toBe(false);
    const lock = acquireLock(path);
    expect(removeStaleLock(path)).toBe(false);
    expect(existsSync(lock.path)).toBe(true);
    lock.release();
  });
});
