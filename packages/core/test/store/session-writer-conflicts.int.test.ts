/**
 * The session writer against other writers (W7: no silent fork between two writers): a
 * foreign process's append, a file replaced by rename or moved away, growth since the load,
 * and the takeover rules between writers of this process. The rest of the writer is in
 * `session-writer.int.test.ts`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, linkSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/store/atomic-write.js";
import { acquireLock, SessionLockedError } from "../../src/store/lock.js";
import {
  SessionConflictError,
  SessionFileDeletedError,
  SessionFileWriter,
} from "../../src/store/session-writer.js";
import { faultFs } from "./helpers.js";
import { HEADER, line, newPath, record, using } from "./writer-fixtures.js";

describe("SessionFileWriter.attach and append", () => {
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
});
