import type { HandlerErrorEvent } from "@pi-sessions/core/internal";
import { definePlugin, installPlugins } from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";
import { freshManager, type TallyState, tally, tallyPlugin, user } from "./plugin-fixtures.js";

describe("plugin hooks on the bus", () => {
  it("receive events in commit order with the manager, the plugin name and the host", () => {
    const sm = freshManager();
    const log: string[] = [];
    const watcher = definePlugin({
      name: "watcher",
      hooks: {
        // Checks go into the log: a throwing hook would only be reported, not fail the test.
        entryAppended: ({ entry }, ctx) => {
          const own = ctx.manager === sm && ctx.host.registry.plugin(ctx.plugin) !== undefined;
          log.push(`${ctx.plugin}:appended:${entry.type}:${own}`);
        },
        leafMoved: ({ from, to }) => log.push(`moved:${from === null}->${to === null}`),
        sessionSwitched: ({ reason }) => log.push(`switched:${reason}`),
      },
    });
    const host = installPlugins(sm, [tallyPlugin, watcher]);
    sm.appendMessage(user("a"));
    host.appendCustom(tally, { amount: 1, tag: "x" });
    sm.resetLeaf();
    sm.newSession();
    expect(log).toEqual([
      "watcher:appended:message:true",
      "watcher:appended:custom:true",
      "moved:false->true",
      "switched:new",
    ]);
  });

  it("fire after commit: a hook reading the branch state sees its own entry folded", () => {
    const sm = freshManager();
    const seen: number[] = [];
    const reader = definePlugin({
      name: "reader",
      hooks: {
        entryAppended: (_e, { host }) => seen.push(host.branchState<TallyState>("tally").total),
      },
    });
    const host = installPlugins(sm, [tallyPlugin, reader]);
    host.appendCustom(tally, { amount: 2, tag: "a" });
    host.appendCustom(tally, { amount: 3, tag: "b" });
    expect(seen).toEqual([2, 5]);
  });

  it("a throwing hook is isolated and reported; appends and other hooks go on", () => {
    const sm = freshManager();
    const errors: HandlerErrorEvent[] = [];
    sm.events.on("handlerError", (e) => errors.push(e));
    const after: string[] = [];
    const broken = definePlugin({
      name: "broken",
      hooks: {
        entryAppended: () => {
          throw new Error("hook failed");
        },
      },
    });
    const fine = definePlugin({
      name: "fine",
      hooks: { entryAppended: ({ entry }) => after.push(entry.id) },
    });
    installPlugins(sm, [broken, fine]);
    const id = sm.appendMessage(user("x"));
    expect(sm.getLeafId()).toBe(id);
    expect(after).toEqual([id]);
    expect(errors.map((e) => [e.event, (e.error as Error).message])).toEqual([
      ["entryAppended", "hook failed"],
    ]);
  });

  it("a hook that appends keeps the order and the branch state consistent", () => {
    const sm = freshManager();
    const order: string[] = [];
    const echo = definePlugin({
      name: "echo",
      hooks: {
        entryAppended: ({ entry }, { host }) => {
          order.push(entry.type);
          if (entry.type === "message") host.appendCustom(tally, { amount: 10, tag: "echo" });
        },
      },
    });
    const host = installPlugins(sm, [tallyPlugin, echo]);
    sm.appendMessage(user("hi"));
    sm.appendMessage(user("again"));
    expect(order).toEqual(["message", "custom", "message", "custom"]);
    expect(host.branchState<TallyState>(tallyPlugin)).toMatchObject({ total: 20, tallies: 2 });
  });

  it("uninstall removes the hooks", () => {
    const sm = freshManager();
    let calls = 0;
    const counter = definePlugin({ name: "counter", hooks: { entryAppended: () => calls++ } });
    const host = installPlugins(sm, [counter]);
    sm.appendMessage(user("1"));
    host.uninstall();
    sm.appendMessage(user("2"));
    expect(calls).toBe(1);
    expect(sm.events.listenerCount("entryAppended")).toBe(0);
  });
});
