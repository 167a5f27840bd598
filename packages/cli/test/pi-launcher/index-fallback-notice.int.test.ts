/**
 * The real `pi` through `pi-sessions pi` with a session index it cannot use (a notes file at
 * the index path): `--session <id prefix>`, which pi resolves with `SessionManager.list`, still
 * finds the session (the listing reads the files), the file at the index path is left as it
 * is, and why the index was not used is said — one line on stderr — only when
 * `PI_SESSIONS_DEBUG` is set; without it pi's output is untouched. A `$PI_SESSIONS_INDEX` in a
 * folder that does not exist (a typo) is the same: the files answer, no folder is made.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { sessionFilesOf } from "./compare-files.js";
import { commonPiArgs, makeSide, runSide } from "./pi-sides.js";

const NOTES = "these are notes, not a session index\n".repeat(50);

describe("/resume's listing when the index cannot be used", () => {
  it("lists from the files; says why on stderr only under PI_SESSIONS_DEBUG", async () => {
    const side = makeSide(tempDir("pi-launcher-notice-"), "ours");
    mkdirSync(dirname(side.indexFile), { recursive: true });
    writeFileSync(side.indexFile, NOTES);
    const pi = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const run = await runSide(side, [...commonPiArgs(), ...args], { env });
      expect(run.code, run.stderr).toBe(0);
      return run;
    };
    const first = await pi(["-p", "Remember the tests."]);
    expect(first.stdout.trim()).toBe("Noted: Remember the tests.");
    const [file] = sessionFilesOf(side) as [string];
    const prefix = (basename(file, ".jsonl").split("_")[1] as string).slice(0, 13);

    const quiet = await pi(["--session", prefix, "-p", "Again."]);
    expect(quiet.stdout.trim()).toBe("Noted: Again.");
    expect(quiet.stderr).toBe("");

    const told = await pi(["--session", prefix, "-p", "Once more."], { PI_SESSIONS_DEBUG: "1" });
    expect(told.stdout.trim()).toBe("Noted: Once more.");
    expect(told.stderr.split("\n")).toEqual([
      expect.stringMatching(
        /^pi-sessions: the session index could not be opened \(.*is not a pi-sessions index \(not a SQLite file\).*\); listing the session files instead$/,
      ),
      "",
    ]);
    expect(told.stderr).toContain(side.indexFile);

    // Both prompts went to the session the prefix names: the files answered the listing.
    expect(sessionFilesOf(side)).toEqual([file]);
    const prompts = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { message?: { role?: string; content?: unknown } })
      .filter((entry) => entry.message?.role === "user")
      .map((entry) => JSON.stringify(entry.message?.content));
    expect(prompts).toHaveLength(3);
    for (const text of ["Remember the tests.", "Again.", "Once more."]) {
      expect(prompts.some((p) => p.includes(text))).toBe(true);
    }
    expect(readFileSync(side.indexFile, "utf8")).toBe(NOTES);
  }, 120_000);

  it("a $PI_SESSIONS_INDEX whose folder does not exist: the files answer, no folder is made", async () => {
    const side = makeSide(tempDir("pi-launcher-typo-"), "ours");
    expect(existsSync(dirname(side.indexFile))).toBe(false);
    const pi = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
      const run = await runSide(side, [...commonPiArgs(), ...args], { env });
      expect(run.code, run.stderr).toBe(0);
      return run;
    };
    expect((await pi(["-p", "Remember the tests."])).stdout.trim()).toBe(
      "Noted: Remember the tests.",
    );
    const [file] = sessionFilesOf(side) as [string];
    const prefix = (basename(file, ".jsonl").split("_")[1] as string).slice(0, 13);
    const told = await pi(["--session", prefix, "-p", "Again."], { PI_SESSIONS_DEBUG: "1" });
    expect(told.stdout.trim()).toBe("Noted: Again.");
    expect(told.stderr).toBe(
      `pi-sessions: the session index could not be opened (the folder of $PI_SESSIONS_INDEX (${side.indexFile}) does not exist); listing the session files instead\n`,
    );
    expect(sessionFilesOf(side)).toEqual([file]);
    expect(existsSync(dirname(side.indexFile))).toBe(false);
  }, 120_000);
});
