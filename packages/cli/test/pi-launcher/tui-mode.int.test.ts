/**
 * pi's interactive TUI in a real terminal (tmux), through `pi-sessions pi` and alone, on one
 * script typed at the keyboard with the scripted model: prompts with a tool call, `/tree` to an
 * earlier prompt with a branch summary, `/new`, `/resume` (the picker: through the launcher it
 * lists from the session index) back to the first session, `/clone`, `/export`, ctrl+d. The
 * files written must equal pi's line by line after numbering ids (times erased), apart from
 * SPEC §12 [Fix] rows (L4).
 */

import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { compareFiles, judge, normaliseSide, sessionFilesOf } from "./compare-files.js";
import { makeSide, type PiSide } from "./pi-sides.js";
import { ask, tuiOf } from "./tui-helpers.js";

/** The script, typed into one side's TUI. */
async function tuiFlow(dir: string, side: PiSide): Promise<void> {
  const tui = tuiOf(dir, side, `flow-${side.kind}`);
  try {
    await tui.waitFor("faux-1");
    await ask(tui, "Read notes.txt.", "The read tool said: hello notes");
    await ask(tui, "What next?", "Noted: What next?");
    tui.submit("/tree");
    await tui.waitFor("Session Tree");
    tui.press("Up", "Up", "Enter");
    await tui.waitFor("Summarize branch?");
    tui.press("Down", "Enter");
    await tui.waitFor("Navigated to selected point");
    await ask(tui, "A different question.", "Noted: A different question.");
    tui.submit("/new");
    await tui.waitFor("New session started");
    await ask(tui, "In a new session.", "Noted: In a new session.");
    tui.submit("/resume");
    await tui.waitFor("Resume Session");
    await tui.waitFor("Read notes.txt.");
    tui.type("Read notes");
    await tui.waitFor((s) => !s.includes("› In a new session."), "the filtered list");
    tui.press("Enter");
    await tui.waitFor("Resumed session");
    await ask(tui, "Back again.", "Noted: Back again.");
    tui.submit("/clone");
    await tui.waitFor("Cloned to new session");
    tui.submit(`/export ${join(side.exportDir, "tui.html")}`);
    await tui.waitFor("Session exported to");
    tui.press("C-d");
    await tui.waitFor("To resume this session");
  } finally {
    await tui.close();
  }
}

describe("pi-sessions pi in the interactive TUI (tmux)", () => {
  it("writes what pi writes: prompts, /tree with a summary, /new, /resume, /clone, /export", async () => {
    const dir = tempDir("pi-launcher-tui-");
    const [piSide, oursSide] = [makeSide(dir, "pi"), makeSide(dir, "ours")];
    await Promise.all([tuiFlow(dir, piSide), tuiFlow(dir, oursSide)]);

    const pi = normaliseSide(piSide);
    const ours = normaliseSide(oursSide);
    const { unexplained, rows } = judge(compareFiles(pi.files, ours.files));
    expect(unexplained).toEqual([]);
    expect([...rows]).toEqual(["W22"]);
    // The first session (resumed), the new one, and the clone.
    expect(sessionFilesOf(oursSide)).toHaveLength(3);
  }, 300_000);
});
