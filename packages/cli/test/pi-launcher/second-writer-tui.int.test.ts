/**
 * A second terminal on the same session (SPEC L3), both through `pi-sessions pi`: the first
 * terminal's pi writes the session; a second one started with `--continue` opens the same file
 * and the user types a prompt there. That prompt goes into a new session forked from the file,
 * the second terminal shows one line saying so (fitted to its width, inside pi's screen), both
 * terminals go on answering, and the original holds only the first terminal's turns.
 */

import { readFileSync } from "node:fs";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { sessionFilesOf } from "./compare-files.js";
import { makeSide } from "./pi-sides.js";
import type { TmuxTerminal } from "./tmux-terminal.js";
import { ask, tuiOf } from "./tui-helpers.js";

const texts = (file: string) => readFileSync(file, "utf8");

describe("a second pi in a second terminal", () => {
  it("continues in a fork of the session, says so in one line, and both go on (TUI)", async () => {
    const dir = tempDir("pi-second-tui-");
    const side = makeSide(dir, "ours");
    const first = tuiOf(dir, side, "first");
    let second: TmuxTerminal | undefined;
    try {
      await first.waitFor("faux-1");
      await ask(first, "Read notes.txt.", "The read tool said: hello notes");
      const [original] = sessionFilesOf(side) as [string];
      // Started once the first wrote: --continue then opens the first's session.
      second = tuiOf(dir, side, "second", ["--continue"]);
      await second.waitFor("Read notes.txt.");
      await ask(second, "Typed in the second terminal.", "Noted: Typed in the second terminal.");
      const screen = await second.waitFor("pi-sessions: another pi (pid");
      const line = screen.split("\n").find((l) => l.startsWith("pi-sessions:")) as string;
      const fork = sessionFilesOf(side).find((f) => f !== original) as string;
      const forkId = fork.split("_").at(-1)?.replace(".jsonl", "") as string;
      expect(line.length).toBeLessThanOrEqual(120);
      expect(line).toMatch(
        /^pi-sessions: another pi \(pid \d+\) is writing session [0-9a-f-]+; continuing in its fork /,
      );
      expect(forkId.startsWith(line.split(" ").at(-1) as string)).toBe(true);

      await ask(first, "First terminal again.", "Noted: First terminal again.");
      await ask(second, "Second terminal again.", "Noted: Second terminal again.");
      first.press("C-d");
      second.press("C-d");
      await first.waitFor("To resume this session");
      await second.waitFor("To resume this session");
    } finally {
      await Promise.all([first.close(), second?.close()]);
    }
    const files = sessionFilesOf(side);
    expect(files).toHaveLength(2);
    const [original, fork] = files as [string, string];
    expect(texts(original)).toContain("First terminal again.");
    expect(texts(original)).not.toContain("Typed in the second terminal.");
    expect(JSON.parse(texts(fork).split("\n")[0] as string)).toMatchObject({
      parentSession: original,
    });
    expect(texts(fork)).toContain("Typed in the second terminal.");
    expect(texts(fork)).toContain("Second terminal again.");
    expect(texts(fork)).not.toContain("First terminal again.");
  }, 300_000);
});
