/**
 * Two faults an extension author hit, through pi's SDK over pi's SessionManager and ours:
 *
 * - a `session_start` handler registered before `installPiPlugin` runs before the host is
 *   bound (pi runs an extension's handlers in registration order); on a resumed or reloaded
 *   session with records, `state()` there used to return the empty initial state. It now
 *   throws and says to call `host.bind(ctx)`, after which the state is the fold of the branch;
 * - `append` / `sendMessage` of data claiming a newer version (`v: 3` for a v2 type) used to be
 *   relabelled `v: 2` and written; it is refused before pi writes anything, as a raw append
 *   through our SessionManager is.
 */
import type { ExtensionFactory } from "@earendil-works/pi-coding-agent";
import {
  SessionManager as CoreSessionManager,
  EntryRejectedError,
  type SessionEntry,
} from "@pi-sessions/core";
import type { PiSdk } from "@pi-sessions/test-utils/pi-sdk";
import type { ManagerSide } from "@pi-sessions/test-utils/pi-switch";
import { afterEach, describe, expect, it } from "vitest";
import { foldBranchState, installPlugins } from "../../src/index.js";
import { installPiPlugin } from "../../src/pi/index.js";
import {
  startTodoSdk,
  type TodoHost,
  type TodoState,
  todoAdd,
  todoNote,
  todoPlugin,
} from "./pi-fixtures.js";

let sdk: PiSdk | undefined;
afterEach(async () => {
  await sdk?.dispose();
  sdk = undefined;
});

/** What the early `session_start` handler saw in one runtime. */
interface Early {
  readonly reason: string;
  readonly before: TodoState | string;
  readonly afterBind: TodoState;
  readonly fold: TodoState;
}

/** An extension whose own `session_start` handler is registered before installPiPlugin. */
function earlyReader(hosts: TodoHost[], seen: Early[]): ExtensionFactory {
  return (pi) => {
    let host: TodoHost | undefined;
    pi.on("session_start", (event, ctx) => {
      if (!host) return;
      let before: TodoState | string;
      try {
        before = host.state();
      } catch (error) {
        before = (error as Error).message;
      }
      host.bind(ctx);
      const branch = ctx.sessionManager.getBranch() as unknown as SessionEntry[];
      seen.push({
        reason: event.reason,
        before,
        afterBind: host.state(),
        fold: foldBranchState(todoPlugin, branch),
      });
    });
    host = installPiPlugin(pi, todoPlugin);
    hosts.push(host);
    pi.registerCommand("add", {
      handler: async (args) => void host?.append(todoAdd, { title: args, done: false }),
    });
  };
}

async function start(side: ManagerSide, extension: (hosts: TodoHost[]) => ExtensionFactory) {
  const started = await startTodoSdk(side, extension, true);
  sdk = started.sdk;
  return { s: started.sdk, host: started.host };
}

describe.each(["pi", "ours"] as const)("the pi host over %s's SessionManager", (side) => {
  it("state() before the host is bound throws; after host.bind(ctx) it is the fold of the branch (resume, reload)", async () => {
    const seen: Early[] = [];
    const { s } = await start(side, (hosts) => earlyReader(hosts, seen));
    await s.prompt("Plan the release.");
    await s.prompt("/add changelog");
    await s.prompt("/add tag");
    const file = s.session().sessionManager.getSessionFile() as string;
    await s.runtime.switchSession(file);
    await s.session().reload();
    expect(seen.map((e) => e.reason)).toEqual(["startup", "resume", "reload"]);
    for (const early of seen) {
      expect(early.before).toMatch(/state\(\) before the host is bound.*host\.bind\(ctx\)/);
      expect(early.afterBind).toEqual(early.fold);
    }
    const resumed = seen.slice(1).map((e) => e.afterBind.todos.map((t) => t.title));
    expect(resumed).toEqual([
      ["changelog", "tag"],
      ["changelog", "tag"],
    ]);
  });

  it("append and sendMessage refuse data that claims a newer version; nothing is written", async () => {
    const { s, host } = await start(side, (hosts) => (pi) => {
      hosts.push(installPiPlugin(pi, todoPlugin));
    });
    await s.prompt("Plan the release.");
    const manager = s.session().sessionManager;
    const before = manager.getEntries().length;
    const newer = { v: 3, title: "from the future", done: false };
    expect(() => host().append(todoAdd, newer)).toThrow(EntryRejectedError);
    expect(() => host().append(todoAdd, newer)).toThrow(/newer-version.*data\.v/s);
    const newerNote = { content: "hi", details: { v: 9, open: 1 } };
    expect(() => host().sendMessage(todoNote, newerNote)).toThrow(EntryRejectedError);
    expect(() => host().append(todoAdd, { v: "2", title: "x", done: false } as never)).toThrow(
      /bad-version/,
    );
    expect(manager.getEntries().length).toBe(before);
    // The same data through a raw append of our SessionManager is refused the same way.
    const sm = CoreSessionManager.inMemory("/w");
    installPlugins(sm, [todoPlugin]);
    expect(() => sm.appendCustomEntry("t-add", newer)).toThrow(EntryRejectedError);
    // The data is typed as the current version: a stale older v (data read back and appended
    // again) is replaced by the current one, as before.
    const readBack = { v: 1, title: "again", done: false };
    host().append(todoAdd, readBack);
    const stored = manager
      .getEntries()
      .slice(before)
      .map((e) => (e as { data?: unknown }).data);
    expect(stored).toEqual([{ v: 2, title: "again", done: false }]);
  });
});

it("installPlugins' appendCustom refuses a newer version too", () => {
  const sm = CoreSessionManager.inMemory("/w");
  const host = installPlugins(sm, [todoPlugin]);
  expect(() => host.appendCustom(todoAdd, { v: 3, title: "x", done: false } as never)).toThrow(
    EntryRejectedError,
  );
  expect(sm.getEntries()).toEqual([]);
});
