/**
 * `writeFileAtomic` with bytes: what is given is what lands on disk, byte for byte — invalid
 * UTF-8 included — through the same temp-file, fsync, rename procedure as text.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/store/atomic-write.js";
import { faultFs, modeOf, tempDir } from "./helpers.js";

let savedUmask = 0;
beforeAll(() => {
  savedUmask = process.umask(0o022);
});
afterAll(() => {
  process.umask(savedUmask);
});

/** A session whose second line is not valid UTF-8 (a lone 0xff, a cut 2-byte sequence, CESU). */
const DAMAGED = Buffer.concat([
  Buffer.from('{"type":"session","version":3,"id":"s"}\n'),
  Buffer.from([0x7b, 0xff, 0xfe, 0xc3, 0x22, 0xed, 0xa0, 0x80, 0x7d, 0x0a]),
  Buffer.from('{"type":"custom","id":"e1","parentId":null}\n'),
]);

describe("writeFileAtomic with bytes", () => {
  it("writes a Buffer exactly, invalid UTF-8 preserved, and fsyncs file and directory", () => {
    const dir = tempDir();
    const path = join(dir, "s.jsonl");
    writeFileSync(path, "old\n");
    // Sanity: going through a string would change these bytes.
    expect(Buffer.from(DAMAGED.toString("utf8")).equals(DAMAGED)).toBe(false);
    const fs = faultFs();
    writeFileAtomic(path, DAMAGED, { fs });
    expect(readFileSync(path).equals(DAMAGED)).toBe(true);
    expect(fs.calls.fsyncSync).toBe(2);
    expect(fs.calls.renameSync).toBe(1);
    expect(readdirSync(dir)).toEqual(["s.jsonl"]);
  });

  it("writes only the bytes of a Uint8Array view, not the buffer around it", () => {
    const dir = tempDir();
    const path = join(dir, "view.jsonl");
    const backing = new Uint8Array(DAMAGED.length + 20).fill(0x41);
    backing.set(DAMAGED, 10);
    const view = backing.subarray(10, 10 + DAMAGED.length);
    writeFileAtomic(path, view, { exclusive: true, mode: 0o640 });
    expect(readFileSync(path).equals(DAMAGED)).toBe(true);
    expect(modeOf(path)).toBe(0o640);
  });

  it("an exclusive write of bytes refuses an existing target and leaves it and no temp behind", () => {
    const dir = tempDir();
    const path = join(dir, "taken.jsonl");
    writeFileSync(path, "mine\n");
    expect(() => writeFileAtomic(path, DAMAGED, { exclusive: true })).toThrow(
      expect.objectContaining({ code: "EEXIST" }),
    );
    expect(readFileSync(path, "utf8")).toBe("mine\n");
    expect(readdirSync(dir)).toEqual(["taken.jsonl"]);
  });

  it("a failed write of bytes leaves the target untouched and removes the temp file", () => {
    const dir = tempDir();
    const path = join(dir, "s.jsonl");
    writeFileSync(path, "old\n");
    const fs = faultFs();
    fs.faults.writeBudget = 5;
    expect(() => writeFileAtomic(path, DAMAGED, { fs })).toThrow(/ENOSPC/);
    expect(readFileSync(path, "utf8")).toBe("old\n");
    expect(readdirSync(dir)).toEqual(["s.jsonl"]);
  });
});
