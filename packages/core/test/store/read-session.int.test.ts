import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createDeterministicEnv } from "../../src/env/env.js";
import { InvalidSessionError } from "../../src/format/load-text.js";
import { readSession, readSessionFile } from "../../src/store/read-session.js";
import { tempDir } from "./helpers.js";

const H1 = '{"type":"session","id":"s1","timestamp":"t","cwd":"/w"}';
const H3 = '{"type":"session","version":3,"id":"s3","timestamp":"t","cwd":"/w"}';
const V1 = '{"type":"message","timestamp":"t","message":{"role":"user","content":"hi"}}';
const entry = (id: string, parentId: string | null) =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "t", message: { role: "user" } });

describe("readSession (read-only open, W13)", () => {
  it("reads a legacy file without writing it: version, migration, header line, size", () => {
    const path = join(tempDir(), "v1.jsonl");
    const text = `junk\n${H1}\n${V1}\n${V1}`;
    writeFileSync(path, text);
    const before = statSync(path).mtimeMs;
    const read = readSession(path, createDeterministicEnv({ seed: 1 }));
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(statSync(path).mtimeMs).toBe(before);
    expect(read).toMatchObject({
      path,
      version: 1,
      needsMigration: true,
      headerLine: 2,
      needsNewline: true,
      size: Buffer.byteLength(text),
    });
    expect(read.header.version).toBe(3);
    expect(read.entries).toHaveLength(2);
    expect(read.diagnostics.map((d) => [d.line, d.kind])).toEqual([[1, "invalid-json"]]);
  });

  it("adds the structural diagnostics with their lines", () => {
    const path = join(tempDir(), "v3.jsonl");
    const lines = [H3, entry("a", null), entry("a", null), entry("b", "zz"), entry("c", "c")];
    writeFileSync(path, `${lines.join("\n")}\n`);
    const read = readSession(path);
    expect(read.needsMigration).toBe(false);
    expect(read.diagnostics.map((d) => [d.line, d.kind])).toEqual([
      [3, "duplicate-id"],
      [4, "dangling-parent"],
      [5, "cycle"],
    ]);
  });

  it("throws for an empty file (kind empty), a non-session and a missing file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "empty.jsonl"), "");
    writeFileSync(join(dir, "other.jsonl"), `${entry("a", null)}\n`);
    expect(() => readSession(join(dir, "empty.jsonl"))).toThrow(
      expect.objectContaining({ kind: "empty" }),
    );
    expect(readFileSync(join(dir, "empty.jsonl"), "utf8")).toBe("");
    expect(() => readSession(join(dir, "other.jsonl"))).toThrow(InvalidSessionError);
    expect(() => readSession(join(dir, "none.jsonl"))).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
  });

  it("loads a legacy file bigger than one read chunk from the one streaming pass", () => {
    const path = join(tempDir(), "big-v1.jsonl");
    const body = Array.from({ length: 60_000 }, () => V1).join("\n");
    writeFileSync(path, `${H1}\nbad line\n${body}\n`);
    const read = readSessionFile(path, createDeterministicEnv({ seed: 2 }));
    if (read.kind !== "loaded") throw new Error(read.kind);
    expect(read.size).toBeGreaterThan(4 * 1024 * 1024);
    expect(read.loaded.entries).toHaveLength(60_000);
    expect(read.loaded.rewrite?.[1]).toBe("bad line\n");
    expect(read.loaded.rewrite).toHaveLength(60_002);
  });
});
