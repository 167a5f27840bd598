/**
 * The session writer (SPEC §6.2, §6.3): its first write, attaching to a loaded file and
 * appending (W1 torn tails, W2 undone writes, W8 deleted files, W9 durability), rewrite and
 * close. Other writers of the same file (W7) are in `session-writer-conflicts.int.test.ts`.
 */
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockPathFor, SessionLockedError } from "../../src/store/lock.js";
import {
  SessionConflictError,
  SessionFileDeletedError,
  SessionFileWriter,
  type SessionWriterOptions,
} from "../../src/store/session-writer.js";
import { faultFs, modeOf } from "./helpers.js";
import { HEADER, line, newPath, record, using } from "./writer-fixtures.js";

let savedUmask = 0;
beforeAll(() => {
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
});

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
