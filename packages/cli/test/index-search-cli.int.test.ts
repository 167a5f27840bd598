/**
 * `search` and `index` (`--verify`, `--rebuild`, `--json`, a progress bar on a terminal)
 * through the real bin; `ls` through the index is in `index-cli.int.test.ts`. Every index lives
 * in a temp directory (the setup file points `XDG_CACHE_HOME` at one); the sessions are never
 * written.
 */

import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "@pi-sessions/cli";
import { SEARCHED_ROLES } from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { snapshot, writeSession } from "./helpers/fixtures.js";
import { corpusFolder, line, userEntry } from "./helpers/index-folder.js";
import { runBin } from "./helpers/run-bin.js";

describe("search", () => {
  it("prints hits with session, entry id and snippet; --json; filters; exit 1 for none", async () => {
    const { root, app } = corpusFolder();
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
    const { root } = corpusFolder();
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
    const { root } = corpusFolder();
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
    const { root, app } = corpusFolder();
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
