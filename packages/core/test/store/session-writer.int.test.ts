import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/store/atomic-write.js";
import { acquireLock, lockPathFor, SessionLockedError } from "../../src/store/lock.js";
import {
  SessionConflictError,
  SessionFileDeletedError,
  SessionFileWriter,
  type SessionWriterOptions,
} from "../../src/store/session-writer.js";
import { faultFs, modeOf, tempDir } from "./helpers.js";

let savedUmask = 0;
beforeAll(() => {
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
});

const HEADER = '{"type":"session","version":3,"id":"s1"}\n';
const record = (n: number): string => `{"type":"custom","id":"e${n}","data":"${"x".repeat(n)}"}`;
const line = (n: number): string => `${record(n)}\n`;

/** A fresh session path in a temp dir. */
function newPath(): string {
  return join(tempDir(), "2024-12-03T14-00-00-000Z_s1.jsonl");
}

/** Runs `fn` with a writer and always closes it. */
function using<T>(writer: SessionFileWriter, fn: (w: SessionFileWriter) => T): T {
  try {
    return fn(writer);
  } finally {
    writer.close();
  }
}

describe("SessionFileWriter.createNew (SPEC §6.2)", () => {
  it("writes header and lines at once, 0600, fsynced, locked, fd open", () => {
    const path = newPath();
    const fs = faultFs();
    using(SessionFileWriter.createNew(path, [HEADER, line(1)], { fs }), (w) => {
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1));
      expect(modeOf(path)).toBe(0o600);
      expect(fs.calls.fsyncSync).toBeGreaterThanOrEqual(1);
      expect(w.isOpen).toBe(true);
      expect(w.isLocked).toBe(true);
      expect(existsSync(lockPathFor(path))).toBe(true);
      w.appendRecord(record(2));
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1) + line(2));
    });
    expect(existsSync(lockPathFor(path))).toBe(false);
  });

  it("fails if the file exists, leaves it alone and releases the lock", () => {
    const path = newPath();
    writeFileSync(path, "someone else's\n");
    expect(() => SessionFileWriter.createNew(path, [HEADER])).toThrow(
      expect.objectContaining({ code: "EEXIST" }),
    );
    expect(readFileSync(path, "utf8")).toBe("someone else's\n");
    expect(existsSync(lockPathFor(path))).toBe(false);
  });

  it("fails with SessionLockedError and writes nothing while another writer holds the lock", () => {
    const path = newPath();
    using(SessionFileWriter.createNew(path, [HEADER]), () => {
      expect(() => SessionFileWriter.createNew(path, [HEADER, line(1)])).toThrow(
        SessionLockedError,
      );
      expect(readFileSync(path, "utf8")).toBe(HEADER);
    });
  });
});

describe("SessionFileWriter.attach and append", () => {
  it("does no IO until the first append (W13), then locks, opens and appends one line", () => {
    const path = newPath();
    writeFileSync(path, HEADER, { mode: 0o644 });
    const before = statSync(path);
    using(SessionFileWriter.attach(path, { size: HEADER.length, endsWithNewline: true }), (w) => {
      expect(w.isOpen).toBe(false);
      expect(w.isLocked).toBe(false);
      expect(existsSync(lockPathFor(path))).toBe(false);
      expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
      w.appendRecord(record(1));
      expect(w.isOpen).toBe(true);
      expect(w.isLocked).toBe(true);
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1));
    });
  });

  it("W1: writes \\n before the next line when the file ends in a torn fragment", () => {
    const path = newPath();
    const torn = `${HEADER}{"type":"custom","id":"frag`;
    writeFileSync(path, torn);
    using(SessionFileWriter.attach(path, { size: torn.length, endsWithNewline: false }), (w) => {
      expect(readFileSync(path, "utf8")).toBe(torn); // attaching changed nothing (W13)
      w.appendRecord(record(1));
      w.appendRecord(record(2));
      expect(readFileSync(path, "utf8")).toBe(`${torn}\n${line(1)}${line(2)}`);
    });
  });

  it("W2: a write that fails half-way is truncated back and the next append is clean", () => {
    const path = newPath();
    const fs = faultFs();
    using(SessionFileWriter.createNew(path, [HEADER, line(1)], { fs }), (w) => {
      fs.faults.writeBudget = 10;
      expect(() => w.appendRecord(record(2))).toThrow(expect.objectContaining({ code: "ENOSPC" }));
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1));
      fs.faults.writeBudget = undefined;
      w.appendRecord(record(3));
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1) + line(3));
    });
  });

  it("W2: if the truncate fails too, the fragment is ended with \\n before the next line", () => {
    const path = newPath();
    const fs = faultFs();
    using(SessionFileWriter.createNew(path, [HEADER], { fs }), (w) => {
      fs.faults.writeBudget = 10;
      fs.faults.failTruncate = true;
      expect(() => w.appendRecord(record(2))).toThrow();
      const fragment = line(2).slice(0, 10);
      expect(readFileSync(path, "utf8")).toBe(HEADER + fragment);
      fs.faults.writeBudget = undefined;
      w.appendRecord(record(3));
      expect(readFileSync(path, "utf8")).toBe(`${HEADER}${fragment}\n${line(3)}`);
    });
  });

  it("W2: a failed fsync undoes the append", () => {
    const path = newPath();
    const fs = faultFs();
    using(SessionFileWriter.createNew(path, [HEADER], { fs, durability: "always" }), (w) => {
      fs.faults.failFsync = true;
      expect(() => w.appendRecord(record(1))).toThrow("EIO");
      expect(readFileSync(path, "utf8")).toBe(HEADER);
      fs.faults.failFsync = false;
      w.appendRecord(record(2));
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(2));
    });
  });

  it("W8: a deleted file is not recreated, whether the fd was open or not", () => {
    const open = newPath();
    using(SessionFileWriter.createNew(open, [HEADER]), (w) => {
      unlinkSync(open);
      expect(() => w.appendRecord(record(1))).toThrow(SessionFileDeletedError);
      expect(() => w.appendRecord(record(1))).toThrow("Session file was deleted");
      expect(existsSync(open)).toBe(false);
    });
    const lazy = newPath();
    writeFileSync(lazy, HEADER);
    using(SessionFileWriter.attach(lazy, { size: HEADER.length, endsWithNewline: true }), (w) => {
      unlinkSync(lazy);
      expect(() => w.appendRecord(record(1))).toThrow(SessionFileDeletedError);
      expect(readdirSync(join(lazy, ".."))).toEqual([]); // neither the file nor a lock
    });
  });

  it("W7: another process appending behind our back gives SessionConflictError, nothing written", () => {
    const path = newPath();
    using(SessionFileWriter.createNew(path, [HEADER, line(1)]), (w) => {
      const foreign = '{"type":"custom","id":"foreign"}\n';
      const child = spawnSync(process.execPath, [
        "-e",
        `require("node:fs").appendFileSync(${JSON.stringify(path)}, ${JSON.stringify(foreign)})`,
      ]);
      expect(child.status).toBe(0);
      expect(() => w.appendRecord(record(2))).toThrow(SessionConflictError);
      expect(() => w.appendRecord(record(2))).toThrow("changed by another writer");
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1) + foreign);
    });
  });

  it("W7: a file replaced by rename (same size) is detected by its inode", () => {
    const path = newPath();
    using(SessionFileWriter.createNew(path, [HEADER]), (w) => {
      const replacement = HEADER.replace("s1", "s2");
      writeFileAtomic(path, replacement);
      expect(() => w.appendRecord(record(1))).toThrow(SessionConflictError);
      expect(readFileSync(path, "utf8")).toBe(replacement);
    });
  });

  it("W7: a replaced file is detected even when a second hard link keeps the old inode alive", () => {
    const path = newPath();
    using(SessionFileWriter.createNew(path, [HEADER]), (w) => {
      w.appendRecord(record(1));
      linkSync(path, `${path}.backup`); // link count 1 → 2: the next append re-checks the path
      w.appendRecord(record(2));
      writeFileAtomic(path, HEADER + line(1) + line(2)); // same size, new inode; old one keeps 1 link
      expect(() => w.appendRecord(record(3))).toThrow(SessionConflictError);
      expect(readFileSync(`${path}.backup`, "utf8")).toBe(HEADER + line(1) + line(2));
    });
  });

  it("W7: a file moved away is noticed within a bounded number of appends", () => {
    const path = newPath();
    const fs = faultFs();
    using(SessionFileWriter.createNew(path, [HEADER], { fs }), (w) => {
      w.appendRecord(record(0));
      const stats = fs.calls.statSync ?? 0;
      for (let i = 0; i < 10; i++) w.appendRecord(record(1));
      // One fstat per append; the path is not stat'ed while the link count is unchanged.
      expect(fs.calls.statSync ?? 0).toBe(stats);
      renameSync(path, `${path}.moved`);
      let appended = 0;
      expect(() => {
        for (; appended < 100; appended++) w.appendRecord(record(2));
      }).toThrow(SessionFileDeletedError);
      expect(appended).toBeLessThan(64);
      expect(existsSync(path)).toBe(false);
    });
  });

  it("W7: a file that grew between load and the first append is a conflict", () => {
    const path = newPath();
    writeFileSync(path, HEADER + line(1));
    using(SessionFileWriter.attach(path, { size: HEADER.length, endsWithNewline: true }), (w) => {
      expect(() => w.appendRecord(record(2))).toThrow(SessionConflictError);
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1));
      expect(w.isOpen).toBe(false);
    });
  });

  it("W7: a newer writer in this process takes the file over; the older one conflicts and writes nothing", () => {
    const path = newPath();
    using(SessionFileWriter.createNew(path, [HEADER]), (first) => {
      const second = SessionFileWriter.attach(path, { size: HEADER.length, endsWithNewline: true });
      using(second, () => {
        second.appendRecord(record(1));
        expect(second.isLocked).toBe(true);
        expect(first.isLocked).toBe(false);
        expect(first.isOpen).toBe(false); // its fd was closed by the takeover
        expect(() => first.appendRecord(record(2))).toThrow(SessionConflictError);
        expect(() => first.rewrite([HEADER])).toThrow(SessionConflictError);
        second.appendRecord(record(3));
        expect(readFileSync(path, "utf8")).toBe(HEADER + line(1) + line(3));
      });
    });
  });

  it("W7: a stale writer of this process cannot take the file over (it conflicts; the holder keeps it)", () => {
    const path = newPath();
    using(SessionFileWriter.createNew(path, [HEADER]), (first) => {
      const stale = SessionFileWriter.attach(path, { size: HEADER.length, endsWithNewline: true });
      first.appendRecord(record(1));
      using(stale, () => {
        expect(() => stale.appendRecord(record(2))).toThrow(SessionConflictError);
        expect(stale.isLocked).toBe(false);
      });
      expect(first.isLocked).toBe(true);
      first.appendRecord(record(3));
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1) + line(3));
    });
  });

  it("W7: a lock held without yielding (a repair's) is not taken over in this process", () => {
    const path = newPath();
    writeFileSync(path, HEADER);
    const repair = acquireLock(path);
    try {
      using(SessionFileWriter.attach(path, { size: HEADER.length, endsWithNewline: true }), (w) => {
        expect(() => w.appendRecord(record(1))).toThrow(SessionLockedError);
      });
      expect(repair.held).toBe(true);
      expect(readFileSync(path, "utf8")).toBe(HEADER);
    } finally {
      repair.release();
    }
  });

  it.each<[string, SessionWriterOptions, boolean | undefined, number]>([
    ["never (default)", {}, undefined, 0],
    ["never, per-call fsync", {}, true, 1],
    ["always", { durability: "always" }, undefined, 1],
    ["always, per-call opt-out", { durability: "always" }, false, 0],
  ])("W9: durability %s fsyncs each append accordingly", (_label, options, fsync, perAppend) => {
    const path = newPath();
    const fs = faultFs();
    using(SessionFileWriter.createNew(path, [HEADER], { ...options, fs }), (w) => {
      const first = fs.calls.fsyncSync ?? 0;
      expect(first).toBeGreaterThanOrEqual(1); // the first write always fsyncs
      for (let i = 0; i < 3; i++) w.appendRecord(record(i), fsync === undefined ? {} : { fsync });
      expect((fs.calls.fsyncSync ?? 0) - first).toBe(3 * perAppend);
    });
  });
});

describe("SessionFileWriter.rewrite and close", () => {
  it("replaces the file atomically (0600), takes the lock, and appends to the new file", () => {
    const path = newPath();
    writeFileSync(path, "v1 content\n");
    chmodSync(path, 0o644);
    const inode = statSync(path).ino;
    using(SessionFileWriter.attach(path, { size: 11, endsWithNewline: true }), (w) => {
      w.rewrite([HEADER, line(1)]);
      expect(w.isLocked).toBe(true);
      expect(modeOf(path)).toBe(0o600);
      expect(statSync(path).ino).not.toBe(inode);
      w.appendRecord(record(2));
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(1) + line(2));
      w.rewrite([HEADER]);
      w.appendRecord(record(3));
      expect(readFileSync(path, "utf8")).toBe(HEADER + line(3));
    });
  });

  it("keeps the original when the rewrite fails, and refuses to rewrite a changed file", () => {
    const path = newPath();
    writeFileSync(path, HEADER);
    const fs = faultFs();
    using(
      SessionFileWriter.attach(path, { size: HEADER.length, endsWithNewline: true }, { fs }),
      (w) => {
        fs.faults.failRename = true;
        expect(() => w.rewrite([HEADER, line(1)])).toThrow("EIO");
        expect(readFileSync(path, "utf8")).toBe(HEADER);
        expect(readdirSync(join(path, "..")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
        fs.faults.failRename = false;
        writeFileSync(path, HEADER + line(9)); // someone else
        expect(() => w.rewrite([HEADER])).toThrow(SessionConflictError);
        expect(readFileSync(path, "utf8")).toBe(HEADER + line(9));
      },
    );
  });

  it("close is idempotent, releases the lock, and later appends throw", () => {
    const path = newPath();
    const w = SessionFileWriter.createNew(path, [HEADER]);
    w.close();
    w.close();
    expect(w.isOpen).toBe(false);
    expect(existsSync(lockPathFor(path))).toBe(false);
    expect(() => w.appendRecord(record(1))).toThrow("closed");
    expect(readFileSync(path, "utf8")).toBe(HEADER);
  });
});
