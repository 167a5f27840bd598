/**
 * `ls` through the index, with the real bin: it reads through the index by default and prints
 * exactly what `--no-index` prints, before and after the files change; `--index FILE` and
 * `$PI_SESSIONS_INDEX`; trouble with the index file falls back to reading the files with one
 * line on stderr. `search` and `index` are in `index-search-cli.int.test.ts`. Every index lives
 * in a temp directory (the setup file points `XDG_CACHE_HOME` at one); the sessions are never
 * written.
 */

import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { snapshot } from "./helpers/fixtures.js";
import { corpusFolder, userEntry } from "./helpers/index-folder.js";
import { runBin } from "./helpers/run-bin.js";

async function lsJson(args: readonly string[]) {
  const r = await runBin(["ls", "--all", "--json", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return { rows: JSON.parse(r.stdout) as unknown[], stderr: r.stderr };
}

describe("ls through the index", () => {
  it("prints what --no-index prints, cold, warm and after a file grew, into the default index", async () => {
    const { root, app } = corpusFolder();
    const before = snapshot(root);
    const direct = await lsJson(["--dir", root, "--no-index"]);
    expect(await lsJson(["--dir", root])).toEqual(direct);
    expect(
      existsSync(join(process.env.XDG_CACHE_HOME as string, "pi-sessions", "index.sqlite")),
    ).toBe(true);
    expect(await lsJson(["--dir", root])).toEqual(direct);
    expect(snapshot(root)).toEqual(before);
    appendFileSync(app, userEntry("u2", "u1", "and the penguin one", 3));
    const grown = await lsJson(["--dir", root, "--no-index"]);
    expect(grown).not.toEqual(direct);
    expect(await lsJson(["--dir", root])).toEqual(grown);
    // The text table is the same too.
    const table = await runBin(["ls", "--all", "--dir", root]);
    expect(table.stdout).toBe((await runBin(["ls", "--all", "--dir", root, "--no-index"])).stdout);
  });

  it("--index FILE uses that file", async () => {
    const { root } = corpusFolder();
    const file = join(tempDir(), "mine.sqlite");
    expect(await lsJson(["--dir", root, "--index", file])).toEqual(
      await lsJson(["--dir", root, "--no-index"]),
    );
    expect(existsSync(file)).toBe(true);
  });

  it("an --index whose folder does not exist is exit 2, creating nothing; the default location is created", async () => {
    const { root } = corpusFolder();
    const parent = tempDir();
    const typo = join(parent, "typo", "dir", "x.sqlite");
    for (const command of [["ls", "--all"], ["search", "walrus"], ["index"]]) {
      const r = await runBin([...command, "--dir", root, "--index", typo]);
      expect(r.code, command.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `pi-sessions: the folder of --index ${typo} does not exist (${join(parent, "typo", "dir")}); create it, or leave --index out to use the default index\n`,
      );
      expect(readdirSync(parent)).toEqual([]);
    }
    // The cache directory is the default's: named with --index, its missing folder is made.
    const cache = join(tempDir(), "cache");
    const defaultFile = join(cache, "pi-sessions", "index.sqlite");
    const env = { XDG_CACHE_HOME: cache };
    const r = await runBin(["ls", "--all", "--dir", root, "--index", defaultFile], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(defaultFile)).toBe(true);
  });

  it("a $PI_SESSIONS_INDEX whose folder does not exist is exit 2 for every command that reads an index, creating nothing", async () => {
    const { root, app } = corpusFolder();
    const parent = tempDir();
    const typo = join(parent, "typo", "x.sqlite");
    const env = { PI_SESSIONS_INDEX: typo };
    for (const command of [
      ["ls", "--all"],
      ["search", "walrus"],
      ["index"],
      ["usage", app],
      ["tree", app, "--depth", "2"],
      ["context", app],
    ]) {
      const r = await runBin([...command, "--dir", root], { env });
      expect(r.code, command.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `pi-sessions: the folder of $PI_SESSIONS_INDEX (${typo}) does not exist (${join(parent, "typo")}); create it, or unset PI_SESSIONS_INDEX to use the default index\n`,
      );
      expect(readdirSync(parent)).toEqual([]);
    }
    // --no-index reads no index: the variable does not matter then.
    expect((await runBin(["ls", "--all", "--dir", root, "--no-index"], { env })).code).toBe(0);
  });

  it("usage --all and tree without --depth check a named --index as the others do (exit 2, nothing created)", async () => {
    const { root, app } = corpusFolder();
    const parent = tempDir();
    const typo = join(parent, "typo3", "i.sqlite");
    for (const command of [
      ["usage", "--all"],
      ["tree", app],
    ]) {
      const r = await runBin([...command, "--dir", root, "--index", typo]);
      expect(r.code, command.join(" ")).toBe(2);
      expect(r.stderr).toBe(
        `pi-sessions: the folder of --index ${typo} does not exist (${join(parent, "typo3")}); create it, or leave --index out to use the default index\n`,
      );
      expect(readdirSync(parent)).toEqual([]);
    }
  });

  it("--index FILE with --no-index is refused in one line (exit 2), in either order, quick parse or not", async () => {
    const { root, app } = corpusFolder();
    const file = join(tempDir(), "i.sqlite");
    for (const args of [
      ["ls", "--all", "--no-index", "--index", file],
      ["ls", "--all", "--index", file, "--no-index"],
      ["ls", "--all", "--no-index", `--index=${file}`],
      ["search", "walrus", "--index", file, "--no-index"],
      ["index", "--no-index", "--index", file],
      ["usage", app, "--no-index", "--index", file],
      ["tree", app, "--index", file, "--no-index"],
      ["context", app, "--no-index", "--index", file],
    ]) {
      const r = await runBin([...args, "--dir", root]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe("pi-sessions: give --index or --no-index, not both\n");
    }
    expect(existsSync(file)).toBe(false);
  });

  it("an index that cannot be opened: one line on stderr, the files read directly", async () => {
    const { root } = corpusFolder();
    const dir = tempDir();
    mkdirSync(join(dir, "index.sqlite"));
    const r = await lsJson(["--dir", root, "--index", join(dir, "index.sqlite")]);
    expect(r.rows).toEqual((await lsJson(["--dir", root, "--no-index"])).rows);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^pi-sessions: index unavailable \(.*\); reading the session files directly$/,
      ),
    ]);
  });

  it("an --index file that is not an index (garbage, a session, notes): left as it is, one line, the same rows", async () => {
    const { root } = corpusFolder();
    const session = join(root, readdirSync(root)[0] as string);
    const notes = join(tempDir(), "notes.txt");
    writeFileSync(notes, "this is not a database, just notes ".repeat(200));
    const sessionFile = join(session, readdirSync(session)[0] as string);
    for (const file of [notes, sessionFile]) {
      const before = readFileSync(file);
      const r = await lsJson(["--dir", root, "--index", file]);
      expect(r.rows).toEqual((await lsJson(["--dir", root, "--no-index"])).rows);
      expect(r.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          /^pi-sessions: index unavailable \(.* is not a pi-sessions index \(not a SQLite file\); it is left as it is\); reading the session files directly$/,
        ),
      ]);
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(existsSync(`${file}-wal`) || existsSync(`${file}-shm`)).toBe(false);
    }
  });
});
