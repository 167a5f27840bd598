/**
 * `ls --all` through the index walks the folder once: the index's walk tells whether it met
 * anything that cannot be read (`clean`), and only then does `ls` scan the folder for it. On a
 * folder holding every kind of such thing — a FIFO, a `*.jsonl` directory and a dangling link
 * in a project folder, a dangling link in the root, a project folder that cannot be listed
 * (as a user folder modes apply to), a file that is no session — a first listing (index cold)
 * and a second (index warm) print exactly what the listing without the index prints (the scan
 * of every file), and on a tidy folder they say nothing on stderr.
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
    // The count of files "not readable as sessions" is left out: the index's listing counts
    // the special entries it met among them (the FIFO, the folder, the root's dangling link),
    // the listing without it does not — so it was before the index walked once, too.
    const said = (r: { code: number | null; stdout: string; stderr: string }) => ({
      ...r,
      stderr: r.stderr.replace(
        /^pi-sessions: \d+ \.jsonl files? (is|are) not readable as sessions.*\n/m,
        "",
      ),
    });
    expect(without.stderr).toMatch(/not readable as sessions/);
    for (const run of ["cold", "warm"]) {
      expect(said(ls(root, index)), run).toEqual(said(without));
    }
  });

  it("says nothing on stderr about a tidy folder, cold and warm", () => {
    const { root, index } = place();
    openUp(root);
    const without = ls(root, null);
    expect(without).toMatchObject({ code: 0, stderr: "" });
    for (const run of ["cold", "warm"]) expect(ls(root, index), run).toEqual(without);
  });
});
