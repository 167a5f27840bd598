/**
 * The real `pi` command in print mode (`-p`), through `pi-sessions pi` and alone, on the same
 * script with the scripted model: a new session with a tool call, `--continue`, `--session` by
 * path and by id prefix (pi resolves a prefix with `SessionManager.list`, so the launcher's
 * answers it from the session index), `--fork`, `--name`, `--no-session`, `--mode json` and
 * `--export`. The files written must equal pi's line by line after numbering ids (times
 * erased), apart from SPEC §12 [Fix] rows (SPEC L4), and so must what pi printed.
 */

import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { compareFiles, judge, normaliseSide, sessionFilesOf } from "./compare-files.js";
import { commonPiArgs, makeSide, type PiSide, runSide } from "./pi-sides.js";

/** The session id in a session file's name (`<time>_<id>.jsonl`). */
const idOf = (file: string) => basename(file, ".jsonl").split("_")[1] as string;

/** Runs the script on one side; returns what pi printed on stdout at each step. */
async function printFlow(side: PiSide): Promise<string[]> {
  const out: string[] = [];
  const pi = async (...args: string[]) => {
    const run = await runSide(side, [...commonPiArgs(), ...args]);
    expect(run.stderr, `${side.kind}: pi ${args.join(" ")}`).toBe("");
    expect(run.code, `${side.kind}: pi ${args.join(" ")}\n${run.stderr}`).toBe(0);
    // Streamed text arrives in chunks as timers fire: json mode's deltas are left out.
    out.push(run.stdout.replace(/^\{"type":"message_update".*\n/gm, ""));
  };
  await pi("-p", "Read notes.txt.");
  const [first] = sessionFilesOf(side) as [string];
  await pi("-c", "-p", "List the files here.");
  await pi("--session", first, "-p", "What next?");
  await pi("--session", idOf(first).slice(0, 13), "-p", "Again, by id.");
  await pi("--fork", first, "-p", "In the fork.");
  await pi("--name", "Named run", "-p", "A named session.");
  await pi("--no-session", "-p", "Nothing saved.");
  await pi("--mode", "json", "-c", "-p", "As JSON.");
  await pi("--export", first, join(side.exportDir, "first.html"));
  return out;
}

describe("pi-sessions pi in print mode", () => {
  it("writes what pi writes: new, --continue, --session (path, id), --fork, --name, --no-session, json, --export", async () => {
    const parent = tempDir("pi-launcher-print-");
    const [piSide, oursSide] = [makeSide(parent, "pi"), makeSide(parent, "ours")];
    const [piOut, oursOut] = await Promise.all([printFlow(piSide), printFlow(oursSide)]);

    const pi = normaliseSide(piSide, piOut);
    const ours = normaliseSide(oursSide, oursOut);
    expect(ours.extra).toEqual(pi.extra);
    const { unexplained, rows } = judge(compareFiles(pi.files, ours.files));
    expect(unexplained).toEqual([]);
    // Our engine wrote them: private modes (W22) show on every file and directory.
    expect([...rows]).toEqual(["W22"]);
    expect(sessionFilesOf(oursSide)).toHaveLength(3);
    const html = readFileSync(join(oursSide.exportDir, "first.html"), "utf8");
    expect(html).toContain("<html");
  }, 240_000);
});
