import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempPathFor, writeFileAtomic } from "../../src/store/atomic-write.js";
import { faultFs, modeOf, tempDir } from "./helpers.js";

let savedUmask = 0;
beforeAll(() => {
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
});

/** The target's original content in the failure tests. */
const ORIGINAL = '{"type":"session","id":"orig"}\n{"type":"custom","id":"e1"}\n';

/** A directory holding one session file with {@link ORIGINAL}. */
function withOriginal(): { dir: string; path: string } {
  const dir = tempDir();
  const path = join(dir, "2024-12-03T14-00-00-000Z_orig.jsonl");
  writeFileSync(path, ORIGINAL);
  return { dir, path };
}

describe("writeFileAtomic", () => {
  it("writes a string or an array of chunks, mode 0600, and leaves no temp file", () => {
    const dir = tempDir();
    const a = join(dir, "a.jsonl");
    const b = join(dir, "b.jsonl");
    writeFileAtomic(a, "line 1\nline 2\n");
    writeFileAtomic(b, ["line 1\n", "", "line 2\n", "ünïcödé ✓\n"]);
    expect(readFileSync(a, "utf8")).toBe("line 1\nline 2\n");
    expect(readFileSync(b, "utf8")).toBe("line 1\nline 2\nünïcödé ✓\n");
    expect(modeOf(a)).toBe(0o600);
    expect(modeOf(b)).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(["a.jsonl", "b.jsonl"]);
  });

  it("replaces an existing file (tightening a 0644 file to 0600) and fsyncs file and directory", () => {
    const { dir, path } = withOriginal();
    chmodSync(path, 0o644);
    const fs = faultFs();
    writeFileAtomic(path, ["new\n"], { fs });
    expect(readFileSync(path, "utf8")).toBe("new\n");
    expect(modeOf(path)).toBe(0o600);
    expect(fs.calls.fsyncSync).toBe(2); // temp file, then directory
    expect(fs.calls.renameSync).toBe(1);
    expect(readdirSync(dir)).toEqual([basename(path)]);
  });

  it("writes many chunks in batches, not one call per chunk and not one giant string", () => {
    const dir = tempDir();
    const path = join(dir, "big.jsonl");
    const lines = Array.from({ length: 5000 }, (_, i) => `{"n":${i},"pad":"${"x".repeat(100)}"}\n`);
    const fs = faultFs();
    writeFileAtomic(path, lines, { fs });
    expect(readFileSync(path, "utf8")).toBe(lines.join(""));
    const writes = fs.calls.writeSync ?? 0;
    expect(writes).toBeGreaterThan(1);
    expect(writes).toBeLessThan(lines.length / 100);
  });

  it.each([
    ["a write fails half-way (ENOSPC)", { writeBudget: 20 }],
    ["the temp file's fsync fails", { failFsync: true }],
    ["the rename fails", { failRename: true }],
  ])("keeps the original intact and removes the temp file when %s", (_label, faults) => {
    const { dir, path } = withOriginal();
    const fs = faultFs();
    Object.assign(fs.faults, faults);
    expect(() =>
      writeFileAtomic(path, ["replacement line that is long enough\n"], { fs }),
    ).toThrow();
    expect(readFileSync(path, "utf8")).toBe(ORIGINAL);
    expect(readdirSync(dir)).toEqual([basename(path)]);
  });

  describe("exclusive", () => {
    it("creates a new file by linking the complete temp file into place", () => {
      const dir = tempDir();
      const path = join(dir, "new.jsonl");
      const fs = faultFs();
      writeFileAtomic(path, ["h\n", "e\n"], { exclusive: true, fs });
      expect(readFileSync(path, "utf8")).toBe("h\ne\n");
      expect(fs.calls.linkSync).toBe(1);
      expect(fs.calls.renameSync).toBeUndefined();
      expect(modeOf(path)).toBe(0o600);
      expect(readdirSync(dir)).toEqual(["new.jsonl"]);
    });

    it("fails with EEXIST when the target exists, leaving it and no temp file", () => {
      const { dir, path } = withOriginal();
      expect(() => writeFileAtomic(path, ["other\n"], { exclusive: true })).toThrow(
        expect.objectContaining({ code: "EEXIST" }),
      );
      expect(readFileSync(path, "utf8")).toBe(ORIGINAL);
      expect(readdirSync(dir)).toEqual([basename(path)]);
    });

    it("falls back to an O_EXCL placeholder plus rename where hard links are unsupported", () => {
      const dir = tempDir();
      const path = join(dir, "nolink.jsonl");
      const fs = faultFs();
      fs.faults.linkError = "EPERM";
      writeFileAtomic(path, "content\n", { exclusive: true, fs });
      expect(readFileSync(path, "utf8")).toBe("content\n");
      expect(readdirSync(dir)).toEqual(["nolink.jsonl"]);
      // Still exclusive without links.
      expect(() => writeFileAtomic(path, "again\n", { exclusive: true, fs })).toThrow(
        expect.objectContaining({ code: "EEXIST" }),
      );
      expect(readFileSync(path, "utf8")).toBe("content\n");
      expect(readdirSync(dir)).toEqual(["nolink.jsonl"]);
    });

    it("leaves no placeholder behind when the fallback's rename fails", () => {
      const dir = tempDir();
      const path = join(dir, "nolink.jsonl");
      const fs = faultFs();
      fs.faults.linkError = "ENOTSUP";
      fs.faults.failRename = true;
      expect(() => writeFileAtomic(path, "content\n", { exclusive: true, fs })).toThrow();
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  describe("temp names (W3, W18)", () => {
    it("sit in the same directory, do not end in .jsonl and fit in 255 bytes", () => {
      const dir = tempDir();
      const longName = `${"é".repeat(118)}_${"x".repeat(10)}.jsonl`; // 253 bytes
      expect(Buffer.byteLength(longName)).toBeLessThanOrEqual(255);
      const temp = tempPathFor(join(dir, longName));
      expect(dirname(temp)).toBe(dir);
      expect(temp.endsWith(".jsonl")).toBe(false);
      expect(basename(temp)).toMatch(/^\..*\.[0-9a-f]{8}\.tmp$/);
      expect(Buffer.byteLength(basename(temp))).toBeLessThanOrEqual(255);
      // Valid UTF-8: no character cut in half.
      expect(Buffer.from(basename(temp), "utf8").toString("utf8")).toBe(basename(temp));
      expect(basename(temp)).not.toContain("\uFFFD");
      // And a real write under that long name works.
      writeFileAtomic(join(dir, longName), "ok\n");
      expect(readFileSync(join(dir, longName), "utf8")).toBe("ok\n");
    });

    it("differ between calls", () => {
      const path = join(tempDir(), "s.jsonl");
      expect(tempPathFor(path)).not.toBe(tempPathFor(path));
    });
  });
});
