/**
 * The example extension in pi's SDK (pi-ai's faux model, a session file on disk): the
 * commands write typed todos, `/todos` lists the branch's todos, a record an older version
 * wrote is read through the upcaster after a resume, a damaged one is reported, and moving in
 * the tree shows that branch's list.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import { createRegistry, renderEntry } from "@pi-sessions/plugins";
import { tempDir } from "@pi-sessions/test-utils";
import { createPiSdk } from "@pi-sessions/test-utils/pi-sdk";
import { expect, it } from "vitest";
import todoExtension from "../src/extension.js";
import { todoPlugin } from "../src/todo-plugin.js";

it("runs in pi's SDK: typed todos, /todos, upcast v1 records, branch lists", async () => {
  const root = tempDir("pi-todo-");
  const cwd = join(root, "work");
  mkdirSync(cwd, { recursive: true });
  const notes: string[] = [];
  const sdk = await createPiSdk({
    cwd,
    agentDir: join(root, "agent"),
    sessionManager: SessionManager.create(cwd, join(root, "sessions")),
    extensions: [todoExtension],
    notify: (message) => notes.push(message),
  });
  try {
    await sdk.prompt("Plan the release.");
    await sdk.prompt("/todo Write the changelog");
    const afterFirst = sdk.session().sessionManager.getLeafId() as string;
    await sdk.prompt("/todo Tag v1.0");
    await sdk.prompt("/done 1");
    await sdk.prompt("/todos");
    expect(notes.at(-1)).toBe("☑ #1 Write the changelog\n☐ #2 Tag v1.0");

    // Stored as typed, versioned data, and drawn by the plugin's renderer.
    const file = sdk.session().sessionManager.getSessionFile() as string;
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
    await sdk.runtime.switchSession(file);
    await sdk.prompt("/todos");
    expect(notes.at(-1)).toBe(
      "☑ #1 Write the changelog\n☐ #2 Tag v1.0\n☐ #0 Announce it\n(1 unreadable todo record(s) skipped)",
    );

    // Another branch has its own list.
    await sdk.session().navigateTree(afterFirst, { summarize: false });
    await sdk.prompt("/todos");
    expect(notes.at(-1)).toBe("☐ #1 Write the changelog\n(1 unreadable todo record(s) skipped)");
    await sdk.prompt("/done 7");
    expect(notes.at(-1)).toBe("No open todo #7");
  } finally {
    await sdk.dispose();
  }
});
