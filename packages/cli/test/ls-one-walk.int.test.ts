/**
 * `ls --all` through the index walks the folder once: the index's walk tells whether it met
 * anything that cannot be read (`clean`), and only then does `ls` scan the folder for it. On a
 * folder holding every kind of such thing — a FIFO, a `*.jsonl` directory and a dangling link
 * in a project folder, a dangling link in the root, a project folder that cannot be listed
 * (as a user folder modes apply to), a file that is no session — a first listing (index cold)
 * and a second (index warm) print exactly what the listing without the index prints (the scan
 * of every file), the count of files that are no session included; on a tidy folder (a project
 * folder named `*.jsonl` too) they say nothing on stderr.
 */

import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { copyCorpus, projectDir } from "./helpers/fixtures.js";
import { binCommand, CLI_DIR } from "./helpers/run-bin.js";

/** As a user folder modes apply to (root reads any folder: as root, the child runs as nobody). */
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

/** `ls --all` over `root`, through the index `index` or (null) without one. */
function ls(root: string, index: string | null) {
  const args = ["ls", "--all", "--dir", root, ...(index === null ? ["--no-index"] : [])];
  const run = spawnSync(process.execPath, [...binCommand(), ...args], {
    cwd: CLI_DIR,
    env: {
      ...process.env,
      NO_COLOR: undefined,
      FORCE_COLOR: undefined,
      PI_SESSIONS_INDEX: index ?? undefined,
    },
    encoding: "utf8",
    timeout: 120_000,
    ...asUser,
  });
  expect(run.error).toBeUndefined();
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A root and an index file the child (maybe `nobody`) may read and write. */
function place() {
  const base = tempDir();
  chmodSync(base, 0o777);
  const root = join(base, "sessions");
  mkdirSync(root);
  copyCorpus(root);
  const cache = join(base, "cache");
  mkdirSync(cache);
  chmodSync(cache, 0o777);
  return { root, index: join(cache, "index.sqlite") };
}

/** Makes everything under `dir` readable and writable by the child. */
function openUp(dir: string): void {
  spawnSync("chmod", ["-R", "a+rwX", dir]);
}

describe("ls --all through the index", () => {
  it("says what cannot be read exactly as the listing of every file does, cold and warm", () => {
    const { root, index } = place();
    const project = projectDir(root, "/home/dev/odd");
    writeFileSync(join(project, "no-session.jsonl"), "not json\n");
    expect(spawnSync("mkfifo", [join(project, "fifo.jsonl")]).status).toBe(0);
    mkdirSync(join(project, "folder.jsonl"));
    symlinkSync(join(project, "nowhere"), join(project, "dangling.jsonl"));
    symlinkSync(join(root, "nowhere"), join(root, "dangling-root.jsonl"));
    const locked = projectDir(root, "/home/dev/locked");
    writeFileSync(join(locked, "s.jsonl"), "{}\n");
    openUp(root);
    chmodSync(locked, 0o000);
    const without = ls(root, null);
    expect(without.code).toBe(2);
    for (const what of ["fifo.jsonl", "folder.jsonl", "dangling.jsonl", "dangling-root.jsonl"]) {
      expect(without.stderr).toContain(what);
    }
    if (asUser.uid !== undefined || process.getuid?.() !== 0)
      expect(without.stderr).toContain(locked);
    expect(without.stderr).toMatch(/not readable as sessions/);
    // The count of files "not readable as sessions" too: the index's walk counted the FIFO,
    // the folder and the root's dangling link among them until it left the count to the scan.
    for (const run of ["cold", "warm"]) expect(ls(root, index), run).toEqual(without);
  });

  it("says nothing on stderr about a tidy folder, cold and warm", () => {
    const { root, index } = place();
    // A project folder whose name ends in `.jsonl` is a folder to both listings, not a file.
    mkdirSync(join(root, "project.jsonl"));
    openUp(root);
    const without = ls(root, null);
    expect(without).toMatchObject({ code: 0, stderr: "" });
    for (const run of ["cold", "warm"]) expect(ls(root, index), run).toEqual(without);
  });
});
