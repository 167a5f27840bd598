/**
 * The index through the real bin: `ls` reads through it by default and prints exactly what
 * `--no-index` prints, before and after the files change; `--index FILE`; trouble with the
 * index file falls back to reading the files with one line on stderr; `search` and `index`
 * (`--verify`, `--rebuild`, `--json`); a progress bar on a terminal. Every index lives in a
 * temp directory (the setup file points `XDG_CACHE_HOME` at one); the sessions are never
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
import { runCli } from "@pi-sessions/cli";
import { SEARCHED_ROLES } from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { copyCorpus, snapshot, writeSession } from "./helpers/fixtures.js";
import { runBin } from "./helpers/run-bin.js";

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** A user message entry as pi writes it. */
function userEntry(id: string, parentId: string | null, text: string, day: number) {
  const timestamp = new Date(Date.UTC(2026, 0, day)).toISOString();
  return line({
    type: "message",
    id,
    parentId,
    timestamp,
    message: { role: "user", content: [{ type: "text", text }], timestamp: Date.parse(timestamp) },
  });
}

/** The corpus plus two hand-made sessions in /home/dev/app and a damaged file. */
function folder() {
  const root = tempDir();
  copyCorpus(root);
  const header = (id: string) =>
    line({
      type: "session",
      version: 3,
      id,
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/home/dev/app",
    });
  const app = writeSession(
    root,
    "/home/dev/app",
    "a.jsonl",
    header("aaaa1111-0000") + userEntry("u1", null, "the walrus migration plan", 2),
  );
  writeSession(root, "/home/dev/app", "b.jsonl", `${header("bbbb2222-0000")}garbage line\n`);
  return { root, app };
}

async function lsJson(args: readonly string[]) {
  const r = await runBin(["ls", "--all", "--json", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return { rows: JSON.parse(r.stdout) as unknown[], stderr: r.stderr };
}

describe("ls through the index", () => {
  it("prints what --no-index prints, cold, warm and after a file grew, into the default index", async () => {
    const { root, app } = folder();
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
    const { root } = folder();
    const file = join(tempDir(), "mine.sqlite");
    expect(await lsJson(["--dir", root, "--index", file])).toEqual(
      await lsJson(["--dir", root, "--no-index"]),
    );
    expect(existsSync(file)).toBe(true);
  });

  it("an --index whose folder does not exist is exit 2, creating nothing; the default location is created", async () => {
    const { root } = folder();
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
    const { root, app } = folder();
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
    const { root, app } = folder();
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
    const { root, app } = folder();
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
    const { root } = folder();
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
    const { root } = folder();
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

describe("search", () => {
  it("prints hits with session, entry id and snippet; --json; filters; exit 1 for none", async () => {
    const { root, app } = folder();
    const before = snapshot(root);
    const text = await runBin(["search", "walrus", "--dir", root]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("aaaa1111  u1        user        the [walrus] migration plan");
    expect(text.stdout).toContain(`${app}:2`);
    const json = await runBin([
      "search",
      "walrus",
      "migration",
      "--dir",
      root,
      "--json",
      "--role",
      "user",
    ]);
    expect(JSON.parse(json.stdout)).toMatchObject([
      { sessionId: "aaaa1111-0000", entryId: "u1", line: 2, path: app },
    ]);
    const none = await runBin(["search", "walrus", "--dir", root, "--since", "2026-02-01"]);
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toMatch(/^pi-sessions: no entry matches "walrus"/);
    const otherCwd = await runBin(["search", "walrus", "--dir", root, "--cwd", "/elsewhere"]);
    expect(otherCwd.code).toBe(1);
    // An index held in memory for the run finds the same hits (ranks depend on what else an
    // index holds, so they are left out).
    const hits = async (args: readonly string[]) =>
      (
        JSON.parse(
          (await runBin(["search", "walrus", "--dir", root, "--json", ...args])).stdout,
        ) as {
          rank?: number;
        }[]
      ).map(({ rank: _rank, ...hit }) => hit);
    expect(await hits(["--no-index"])).toEqual(await hits([]));
    expect(snapshot(root)).toEqual(before);
  });

  it("--role takes only the roles search looks in (core's SEARCHED_ROLES); another is exit 2 naming them", async () => {
    const { root } = folder();
    const bad = await runBin(["search", "walrus", "--dir", root, "--role", "user,tool"]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.trim()).toBe(
      `pi-sessions: option '--role <roles>' argument 'user,tool' is invalid. unknown role "tool"; the roles search looks in are ${SEARCHED_ROLES.join(", ")} (see --help)`,
    );
    expect(SEARCHED_ROLES).toEqual(["user", "assistant", "toolResult", "custom"]);
    // Every one of them is taken (nothing matches here in those roles but the user's).
    const all = await runBin([
      "search",
      "walrus",
      "--dir",
      root,
      "--role",
      SEARCHED_ROLES.join(","),
    ]);
    expect(all.code, all.stderr).toBe(0);
    const others = await runBin(["search", "walrus", "--dir", root, "--role", "assistant, custom"]);
    expect(others.code, others.stderr).toBe(1);
    expect(others.stderr.trim()).toMatch(/^pi-sessions: no entry matches "walrus"/);
    // A repeated --role adds to the earlier ones, as the comma form does (not the last only).
    const roles = (args: readonly string[]) =>
      runBin(["search", "walrus", "--dir", root, "--json", ...args]);
    const repeated = await roles(["--role", "user", "--role", "assistant"]);
    expect(repeated.code, repeated.stderr).toBe(0);
    expect(repeated.stdout).toBe((await roles(["--role", "user,assistant"])).stdout);
    expect(JSON.parse(repeated.stdout)).toMatchObject([{ entryId: "u1", role: "user" }]);
  });

  it("a bad date or an empty query is exit 2 with one line", async () => {
    const { root } = folder();
    const date = await runBin(["search", "x", "--dir", root, "--since", "someday"]);
    expect(date.code).toBe(2);
    expect(date.stderr.trim()).toContain("expected a date");
    const empty = await runBin(["search", " ", "--dir", root]);
    expect(empty.code).toBe(2);
    expect(empty.stderr.trim()).toBe("pi-sessions: the search query has no words");
  });
});

describe("index", () => {
  it("syncs, verifies and rebuilds, in text and JSON", async () => {
    const { root, app } = folder();
    const file = join(tempDir(), "index.sqlite");
    const first = await runBin(["index", "--dir", root, "--index", file]);
    expect(first.stdout.trim()).toBe(
      `indexed 5 sessions of ${root} in ${file}: 5 indexed, 0 caught up, 0 unchanged, 0 dropped`,
    );
    appendFileSync(app, userEntry("u2", "u1", "more", 3));
    const json = await runBin(["index", "--dir", root, "--index", file, "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      sessions: 5,
      counts: { "caught-up": 1, unchanged: 4 },
    });
    const verify = await runBin(["index", "--verify", "--dir", root, "--index", file]);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toContain(
      "5 files, 5 up to date, 0 changed since, 0 not indexed, 0 of deleted files; no problems",
    );
    const rebuilt = await runBin(["index", "--rebuild", "--dir", root, "--index", file, "--json"]);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({
      rebuilt: true,
      sessions: 5,
      counts: { indexed: 5 },
    });
    const both = await runBin(["index", "--rebuild", "--verify", "--dir", root, "--index", file]);
    expect(both.code).toBe(2);
  });

  it("draws a progress bar on a terminal while a large folder is indexed", async () => {
    const root = tempDir();
    for (let i = 0; i < 210; i++) {
      const id = `s${String(i).padStart(4, "0")}`;
      const text = line({
        type: "session",
        version: 3,
        id,
        timestamp: "2026-01-01T00:00:00.000Z",
        cwd: "/p",
      });
      writeSession(root, "/p", `${id}.jsonl`, text + userEntry(`u${i}`, null, `hello ${i}`, 2));
    }
    let stderr = "";
    let stdout = "";
    const io = {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t), isTTY: true },
      env: { ...process.env },
      cwd: root,
    };
    const code = await runCli(["index", "--dir", root, "--index", join(tempDir(), "i.sqlite")], io);
    expect(code).toBe(0);
    expect(stderr).toContain("\rindexing sessions [");
    expect(stderr).toContain("210/210");
    expect(stdout).toContain("indexed 210 sessions");
  });
});
