/**
 * The example extension in pi's own runtime with a scripted model, over pi's SessionManager
 * and ours, using only published packages (`@pi-sessions/testkit/pi`): the commands write
 * typed todos, `/todos` lists the branch's todos, a record an older version wrote is read
 * through the upcaster after a resume, a damaged one is reported, moving in the tree shows
 * that branch's list, and pi draws the entries with the plugin's renderer.
 */
import { readFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import { type CustomEntry, SessionManager } from "@earendil-works/pi-coding-agent";
import { createRegistry, renderEntry } from "@pi-sessions/plugins";
import { toPiExtension } from "@pi-sessions/plugins/pi";
import { type PiTestSession, piTheme, startPiSession } from "@pi-sessions/testkit/pi";
import { afterEach, describe, expect, it } from "vitest";
import todoExtension from "../src/extension.js";
import { todoPlugin } from "../src/todo-plugin.js";

let pi: PiTestSession | undefined;
afterEach(async () => {
  await pi?.dispose();
  pi = undefined;
});

const lastNote = (session: PiTestSession) => session.notes.at(-1)?.message;

describe.each(["pi", "ours"] as const)("over %s's SessionManager", (manager) => {
  it("runs in pi: typed todos, /todos, upcast v1 records, branch lists", async () => {
    pi = await startPiSession({ manager, extensions: [todoExtension] });
    await pi.prompt("Plan the release.");
    await pi.prompt("/todo Write the changelog");
    const afterFirst = pi.manager().getLeafId() as string;
    await pi.prompt("/todo Tag v1.0");
    await pi.prompt("/done 1");
    await pi.prompt("/todos");
    expect(lastNote(pi)).toBe("☑ #1 Write the changelog\n☐ #2 Tag v1.0");

    // Stored as typed, versioned data, and drawn by the plugin's renderer.
    const file = pi.manager().getSessionFile() as string;
    const stored = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((e) => e.type === "custom");
    expect(stored.map((e) => e.data)).toEqual([
      { v: 2, op: "add", id: 1, title: "Write the changelog" },
      { v: 2, op: "add", id: 2, title: "Tag v1.0" },
      { v: 2, op: "done", id: 1 },
    ]);
    const renderers = createRegistry([todoPlugin]).renderers();
    expect(stored.map((e) => renderEntry(e, { format: "text", renderers }))).toEqual([
      "☐ #1 Write the changelog",
      "☐ #2 Tag v1.0",
      "☑ #1 done",
    ]);

    // An older version of the extension wrote `{ text }`; a bug wrote a todo without an id.
    const older = SessionManager.open(file);
    older.appendCustomEntry("todo", { text: "Announce it" });
    older.appendCustomEntry("todo", { v: 2, op: "add", title: "no id" });
    await pi.runtime.switchSession(file);
    await pi.prompt("/todos");
    expect(lastNote(pi)).toBe(
      "☑ #1 Write the changelog\n☐ #2 Tag v1.0\n☐ #0 Announce it\n(1 unreadable todo record(s) skipped)",
    );

    // Another branch has its own list.
    await pi.session().navigateTree(afterFirst, { summarize: false });
    await pi.prompt("/todos");
    expect(lastNote(pi)).toBe("☐ #1 Write the changelog\n(1 unreadable todo record(s) skipped)");
    await pi.prompt("/done 7");
    expect(lastNote(pi)).toBe("No open todo #7");
    await pi.prompt("/done 0");
    expect(lastNote(pi)).toBe("Todos from version 1 have no id and cannot be marked done");
  });

  it("works as a plain plugin extension: toPiExtension(todoPlugin) draws its entries in pi", async () => {
    pi = await startPiSession({ manager, extensions: [toPiExtension(todoPlugin)] });
    await pi.prompt("Plan the release.");
    // Written as any extension would; the plugin's renderer draws it in pi.
    pi.manager().appendCustomEntry("todo", { v: 2, op: "add", id: 5, title: "Ship [v1] now" });
    const last = pi.manager().getLeafEntry() as CustomEntry;
    const hints = { expanded: false, outputPad: 1, keyText: () => "", keyHint: () => "" };
    const renderer = pi.session().extensionRunner.getEntryRenderer("todo");
    const drawn = renderer?.(last, hints, piTheme())?.render(80) ?? [];
    expect(stripVTControlCharacters(drawn.join("\n")).trim()).toBe("☐ #5 Ship [v1] now");
  });
});
