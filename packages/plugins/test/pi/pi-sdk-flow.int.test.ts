/**
 * The plugin inside pi's SDK (pi-ai's faux model), over pi's SessionManager and ours: after
 * every prompt, command, tree navigation, compaction, reopen + resume, fork and new session,
 * the host's branch state equals `foldBranchState` over pi's `getBranch()`; v1 records are
 * read through the upcaster; damaged records become diagnostics; an invalid append is
 * refused before anything reaches memory or disk.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@earendil-works/pi-coding-agent";
import {
  SessionManager as CoreSessionManager,
  EntryRejectedError,
  type SessionEntry,
} from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import { createPiSdk, type PiSdk } from "@pi-sessions/test-utils/pi-sdk";
import { type ManagerSide, useSessionManager } from "@pi-sessions/test-utils/pi-switch";
import { afterEach, describe, expect, it, vi } from "vitest";
import { foldBranchState } from "../../src/index.js";
import { type TodoHost, todoAdd, todoExtension, todoPlugin } from "./pi-fixtures.js";

let sdk: PiSdk | undefined;
afterEach(async () => {
  await sdk?.dispose();
  sdk = undefined;
});

async function start(side: ManagerSide) {
  const { cls, other } = useSessionManager(side, CoreSessionManager);
  const root = tempDir("pi-plugins-");
  const cwd = join(root, "work");
  const agentDir = join(root, "agent");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  const hosts: TodoHost[] = [];
  const manager = SessionManager.create(cwd, join(root, "sessions"));
  sdk = await createPiSdk({
    cwd,
    agentDir,
    sessionManager: manager,
    extensions: [todoExtension(hosts)],
  });
  const s = sdk;
  const host = (): TodoHost => hosts[hosts.length - 1] as TodoHost;
  const branch = () => s.session().sessionManager.getBranch() as unknown as SessionEntry[];
  /** The law: the live state equals the pure fold of pi's current branch. */
  const checkLaw = (step: string) => {
    expect(host().bound, step).toBe(true);
    expect(host().state(), step).toEqual(foldBranchState(todoPlugin, branch()));
    expect(host().failures(), step).toEqual([]);
  };
  return { cls, other, s, host, branch, checkLaw };
}

const titles = (host: TodoHost) =>
  host.state().todos.map((x) => `${x.title}${x.done ? "+" : ""}@v${x.v}`);

describe.each(["pi", "ours"] as const)(
  "a plugin inside pi's SDK over %s's SessionManager",
  (side) => {
    it("keeps the branch state equal to a fold over getBranch() through every session operation", async () => {
      const { cls, other, s, host, branch, checkLaw } = await start(side);
      // pi's runtime got the class under test (the switch routed it).
      expect(s.session().sessionManager).toBeInstanceOf(cls);
      expect(s.session().sessionManager).not.toBeInstanceOf(other);
      checkLaw("startup");
      await s.prompt("Hello.");
      checkLaw("prompt");
      await s.prompt("/add write tests");
      await s.prompt("/add ship it");
      const afterTwo = branch().at(-1)?.id as string;
      checkLaw("two typed appends");
      await s.prompt("/raw-v1 legacy item");
      checkLaw("a v1 record");
      expect(titles(host())).toEqual(["write tests@v2", "ship it@v2", "legacy item@v1"]);
      await s.prompt("/done write tests");
      await s.prompt("/note keep going");
      checkLaw("done marker and custom message");
      expect(host().state().notes).toBe(1);
      await s.prompt("What next?");
      checkLaw("prompt after appends");

      await s.session().navigateTree(afterTwo, { summarize: false });
      checkLaw("navigateTree");
      expect(titles(host())).toEqual(["write tests@v2", "ship it@v2"]);
      await s.prompt("/add on the side branch");
      checkLaw("append on the new branch");

      await s.session().compact();
      checkLaw("compact");
      expect(titles(host())).toEqual(["write tests@v2", "ship it@v2", "on the side branch@v2"]);

      const file = s.session().sessionManager.getSessionFile() as string;
      const before = host();
      await s.runtime.switchSession(file);
      expect(host()).not.toBe(before);
      expect(s.session().sessionManager).toBeInstanceOf(cls);
      checkLaw("reopen + resume");
      expect(titles(host())).toEqual(["write tests@v2", "ship it@v2", "on the side branch@v2"]);

      await s.runtime.fork(afterTwo, { position: "at" });
      expect(s.session().sessionManager).toBeInstanceOf(cls);
      checkLaw("fork");
      expect(titles(host())).toEqual(["write tests@v2", "ship it@v2"]);
      await s.prompt("/add in the fork");
      checkLaw("append in the fork");

      await s.runtime.newSession();
      expect(s.session().sessionManager).toBeInstanceOf(cls);
      checkLaw("new session");
      expect(host().state()).toEqual({ todos: [], notes: 0 });
    });

    it("extends the state in O(1) on its own appends: no branch is refolded", async () => {
      const { s, host, checkLaw } = await start(side);
      await s.prompt("Hello.");
      await s.prompt("/add first");
      host().state();
      const manager = s.session().sessionManager;
      const getBranch = vi.spyOn(manager, "getBranch");
      for (const title of ["second", "third", "fourth"]) {
        await s.prompt(`/add ${title}`);
        expect(host().state().todos.at(-1)?.title).toBe(title);
      }
      await s.prompt("/done second");
      expect(
        host()
          .state()
          .todos.map((x) => x.done),
      ).toEqual([false, true, false, false]);
      expect(getBranch).not.toHaveBeenCalled();
      getBranch.mockRestore();
      checkLaw("after the O(1) appends");
    });

    it("hears of entries written behind its back, catching up in O(1) on the next read", async () => {
      const { s, host, checkLaw } = await start(side);
      await s.prompt("Hello.");
      await s.prompt("/add first");
      const heard: string[][] = [];
      host().subscribe((state) => heard.push(state.todos.map((x) => x.title)));
      host().state();
      const getBranch = vi.spyOn(s.session().sessionManager, "getBranch");
      // pi.appendEntry straight from a command: pi tells extensions nothing about it.
      await s.prompt('/raw {"v":2,"title":"behind its back","done":false}');
      expect(
        host()
          .state()
          .todos.map((x) => x.title),
      ).toEqual(["first", "behind its back"]);
      expect(heard.at(-1)).toEqual(["first", "behind its back"]);
      await s.prompt("/add after");
      expect(heard.at(-1)).toEqual(["first", "behind its back", "after"]);
      expect(getBranch).not.toHaveBeenCalled();
      getBranch.mockRestore();
      checkLaw("after appends by others");
    });

    it("refuses an invalid append before anything reaches memory or disk", async () => {
      const { s, host, checkLaw } = await start(side);
      await s.prompt("Hello.");
      await s.prompt("/add real");
      const manager = s.session().sessionManager;
      const file = manager.getSessionFile() as string;
      expect(existsSync(file)).toBe(true);
      const bytes = readFileSync(file, "utf8");
      const entries = manager.getEntries().length;
      const leaf = manager.getLeafId();
      const state = host().state();
      const bad = { title: 3, done: "no" } as unknown as { title: string; done: boolean };
      let refused: unknown;
      try {
        host().append(todoAdd, bad);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(EntryRejectedError);
      expect(String((refused as Error).message)).toMatch(
        /data\.title.*data\.done|data\.done.*data\.title/s,
      );
      expect(readFileSync(file, "utf8")).toBe(bytes);
      expect(manager.getEntries().length).toBe(entries);
      expect(manager.getLeafId()).toBe(leaf);
      expect(host().state()).toBe(state);
      // A message of the wrong shape is refused the same way, before pi.sendMessage.
      expect(() =>
        host().sendMessage("t-note", { content: "x", details: { open: "many" } } as never),
      ).toThrow(EntryRejectedError);
      expect(manager.getEntries().length).toBe(entries);
      checkLaw("after the refusals");
    });

    it("reports unreadable records as diagnostics and skips them in the state", async () => {
      const { s, host, checkLaw } = await start(side);
      await s.prompt("/add fine");
      await s.prompt(`/raw ${JSON.stringify({ v: 9, title: "from the future", done: false })}`);
      await s.prompt(`/raw ${JSON.stringify({ v: 2, title: 42, done: false })}`);
      checkLaw("damaged records");
      expect(titles(host())).toEqual(["fine@v2"]);
      const kinds = host()
        .diagnostics()
        .map((d) => [d.customType, d.kind]);
      expect(kinds).toEqual([
        ["t-add", "newer-version"],
        ["t-add", "invalid-data"],
      ]);
      expect(host().diagnostics()[1]?.message).toMatch(/data\.title/);
    });
  },
);
