/**
 * The example extension in pi's SDK (pi-ai's faux model, a session file on disk): the
 * commands write typed todos, `/todos` lists the branch's todos, a record an older version
 * wrote is read through the upcaster after a resume, a damaged one is reported, and moving in
 * the tree shows that branch's list.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { type CustomEntry, SessionManager } from "@earendil-works/pi-coding-agent";
import { SessionManager as CoreSessionManager } from "@pi-sessions/core";
import { createRegistry, renderEntry } from "@pi-sessions/plugins";
import { toPiExtension } from "@pi-sessions/plugins/pi";
import { tempDir } from "@pi-sessions/test-utils";
import { createPiSdk } from "@pi-sessions/test-utils/pi-sdk";
import { type ManagerSide, useSessionManager } from "@pi-sessions/test-utils/pi-switch";
import { describe, expect, it } from "vitest";
import {
  initTheme,
  theme,
} from "../node_modules/@earendil-works/pi-coding-agent/dist/modes/interactive/theme/theme.js";
import todoExtension from "../src/extension.js";
import { todoPlugin } from "../src/todo-plugin.js";

describe.each<ManagerSide>(["pi", "ours"])("over %s SessionManager", (side) => {
  it("runs in pi's SDK: typed todos, /todos, upcast v1 records, branch lists", async () => {
    const { cls, other } = useSessionManager(side, CoreSessionManager);
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
      expect(sdk.session().sessionManager).toBeInstanceOf(cls);
      expect(sdk.session().sessionManager).not.toBeInstanceOf(other);
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
      await sdk.prompt("/done 0");
      expect(notes.at(-1)).toBe("Todos from version 1 have no id and cannot be marked done");
      expect(sdk.session().sessionManager).toBeInstanceOf(cls);
    } finally {
      await sdk.dispose();
    }
  });

  it("works as a plain plugin extension: toPiExtension(todoPlugin) draws its entries in pi", async () => {
    useSessionManager(side, CoreSessionManager);
    const root = tempDir("pi-todo-");
    const cwd = join(root, "work");
    mkdirSync(cwd, { recursive: true });
    const sdk = await createPiSdk({
      cwd,
      agentDir: join(root, "agent"),
      sessionManager: SessionManager.create(cwd, join(root, "sessions")),
      extensions: [toPiExtension(todoPlugin)],
    });
    try {
      await sdk.prompt("Plan the release.");
      // Written as any extension would; the plugin's renderer draws it in pi.
      const manager = sdk.session().sessionManager;
      manager.appendCustomEntry("todo", { v: 2, op: "add", id: 5, title: "Ship" });
      const last = manager.getLeafEntry() as CustomEntry;
      // pi draws it with the renderer toPiExtension registered (a themed Markdown component).
      initTheme("dark", false);
      const hints = { expanded: false, outputPad: 1, keyText: () => "", keyHint: () => "" };
      const renderer = sdk.session().extensionRunner.getEntryRenderer("todo");
      const drawn = renderer?.(last, hints, theme)?.render(80) ?? [];
      expect(stripVTControlCharacters(drawn.join("\n")).trim()).toBe("☐ #5 Ship");
    } finally {
      await sdk.dispose();
    }
  });
});
