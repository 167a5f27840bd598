import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deleteSessionFile, findOnPath } from "../../src/store/delete.js";
import { acquireLock, lockPathFor } from "../../src/store/lock.js";
import { deadPid, tempDir } from "./helpers.js";

/** Writes an executable shell script and returns its path. */
function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A session file in a fresh directory, plus a sibling directory acting as the trash. */
function setup(): { dir: string; path: string; trash: string; bin: string } {
  const root = tempDir();
  const dir = join(root, "sessions");
  const trash = join(root, "trash");
  const bin = join(root, "bin");
  for (const d of [dir, trash, bin]) mkdirSync(d);
  const path = join(dir, "2024-12-03T14-00-00-000Z_s.jsonl");
  writeFileSync(path, '{"type":"session"}\n');
  return { dir, path, trash, bin };
}

describe("deleteSessionFile (SPEC §1.6)", () => {
  it.skipIf(process.platform === "win32")(
    "moves the file with the trash command when it works",
    () => {
      const { path, trash, bin } = setup();
      const trashCommand = script(bin, "trash", `mv "$1" "${trash}/"`);
      expect(deleteSessionFile(path, { trashCommand })).toEqual({ method: "trash" });
      expect(existsSync(path)).toBe(false);
      expect(readdirSync(trash)).toEqual(["2024-12-03T14-00-00-000Z_s.jsonl"]);
    },
  );

  it.skipIf(process.platform === "win32")(
    "counts a failing trash that removed the file as trashed",
    () => {
      const { path, trash, bin } = setup();
      const trashCommand = script(bin, "trash", `mv "$1" "${trash}/"; exit 3`);
      expect(deleteSessionFile(path, { trashCommand })).toEqual({ method: "trash" });
      expect(existsSync(path)).toBe(false);
    },
  );

  it.skipIf(process.platform === "win32")(
    "falls back to unlink when trash fails and the file remains",
    () => {
      const { path, trash, bin } = setup();
      const trashCommand = script(bin, "trash", "exit 1");
      expect(deleteSessionFile(path, { trashCommand })).toEqual({ method: "unlink" });
      expect(existsSync(path)).toBe(false);
      expect(readdirSync(trash)).toEqual([]);
    },
  );

  it("unlinks when there is no trash command, or the command cannot be run", () => {
    const a = setup();
    expect(deleteSessionFile(a.path, { trashCommand: null })).toEqual({ method: "unlink" });
    expect(existsSync(a.path)).toBe(false);
    const b = setup();
    const missing = join(b.bin, "no-such-trash");
    expect(deleteSessionFile(b.path, { trashCommand: missing })).toEqual({ method: "unlink" });
    expect(existsSync(b.path)).toBe(false);
  });

  it("throws when the file does not exist and nothing can remove it", () => {
    const { dir } = setup();
    expect(() => deleteSessionFile(join(dir, "missing.jsonl"), { trashCommand: null })).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
  });

  it("removes a stale leftover lock, and keeps a live one", () => {
    const a = setup();
    writeFileSync(
      lockPathFor(a.path),
      JSON.stringify({ pid: deadPid(), host: hostname(), acquiredAt: new Date().toISOString() }),
    );
    deleteSessionFile(a.path, { trashCommand: null });
    expect(readdirSync(a.dir)).toEqual([]);

    const b = setup();
    const lock = acquireLock(b.path);
    try {
      deleteSessionFile(b.path, { trashCommand: null });
      expect(readdirSync(b.dir)).toEqual(["2024-12-03T14-00-00-000Z_s.jsonl.lock"]);
    } finally {
      lock.release();
    }
  });

  it.skipIf(process.platform === "win32")("findOnPath finds executables only", () => {
    const { bin } = setup();
    const exe = script(bin, "my-tool", "exit 0");
    writeFileSync(join(bin, "not-exec"), "x");
    expect(findOnPath("my-tool", `/nonexistent-dir:${bin}`)).toBe(exe);
    expect(findOnPath("not-exec", bin)).toBeUndefined();
    expect(findOnPath("my-tool", "")).toBeUndefined();
  });
});
