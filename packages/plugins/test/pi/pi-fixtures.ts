/**
 * The plugin the pi tests load into pi's SDK: typed todo entries (v2, with a v1 upcaster), a
 * done marker whose renderer throws for one title, and a custom message type. Its extension
 * adds commands that write through the typed host and, for old and damaged records, through
 * `pi.appendEntry` directly, as an older version of the extension or a bug would.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type ExtensionFactory, SessionManager } from "@earendil-works/pi-coding-agent";
import { SessionManager as CoreSessionManager } from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import { createPiSdk, type PiSdk } from "@pi-sessions/test-utils/pi-sdk";
import { type ManagerSide, useSessionManager } from "@pi-sessions/test-utils/pi-switch";
import * as t from "io-ts";
import { customEntryType, customMessageType, definePlugin } from "../../src/index.js";
import { installPiPlugin, type PiPluginHost, type PiPluginOptions } from "../../src/pi/index.js";

/** A todo: v2 data; v1 stored `{ text }` without the done flag. */
export const todoAdd = customEntryType({
  customType: "t-add",
  data: t.type({ title: t.string, done: t.boolean }),
  version: 2,
  upcasters: { 1: (old) => ({ title: (old as { text: string }).text, done: false }) },
  render: (value, _entry, ctx) => `todo: ${ctx.escape(value.title)}${value.done ? " (done)" : ""}`,
});

/** Marks a todo done; its renderer throws for the title "boom" (pi must draw its default). */
export const todoDone = customEntryType({
  customType: "t-done",
  data: t.type({ title: t.string }),
  render: (value, _entry, ctx) => {
    if (value.title === "boom") throw new Error("renderer exploded");
    return `done: ${ctx.escape(value.title)}`;
  },
});

/** A note to the model with the open count in its details. */
export const todoNote = customMessageType({
  customType: "t-note",
  details: t.type({ open: t.number }),
  content: t.string,
  render: (value) => `note (${value.details.open} open): ${value.content}`,
});

/** The branch state: todos in order, each with whether it is done and the version it was read from. */
export interface TodoState {
  readonly todos: readonly { readonly title: string; readonly done: boolean; readonly v: number }[];
  readonly notes: number;
}

export const todoPlugin = definePlugin({
  name: "pi-test-todos",
  entryTypes: [todoAdd, todoDone],
  messageTypes: [todoNote],
  branchState: {
    init: (): TodoState => ({ todos: [], notes: 0 }),
    apply: (state, item): TodoState => {
      if (item.customType === "t-add") {
        const todo = { title: item.value.title, done: item.value.done, v: item.storedVersion };
        return { ...state, todos: [...state.todos, todo] };
      }
      if (item.customType === "t-done") {
        const title = item.value.title;
        return {
          ...state,
          todos: state.todos.map((x) => (x.title === title ? { ...x, done: true } : x)),
        };
      }
      return { ...state, notes: state.notes + 1 };
    },
  },
});

export type TodoHost = PiPluginHost<
  TodoState,
  Parameters<NonNullable<typeof todoPlugin.branchState>["apply"]>[1]
>;

/**
 * The test extension. pi calls it once per runtime; `hosts` collects each runtime's host, so
 * the last one is the live one. Commands: `/add <title>`, `/done <title>`, `/note <text>`,
 * `/raw-v1 <text>` (a v1 record), `/raw <json>` (any data under "t-add").
 */
export function todoExtension(hosts: TodoHost[], options: PiPluginOptions = {}): ExtensionFactory {
  return (pi) => {
    const host = installPiPlugin(pi, todoPlugin, options);
    hosts.push(host);
    pi.registerCommand("add", {
      handler: async (args) => void host.append(todoAdd, { title: args, done: false }),
    });
    pi.registerCommand("done", {
      handler: async (args) => void host.append("t-done", { title: args }),
    });
    pi.registerCommand("note", {
      handler: async (args) => {
        const open = host.state().todos.filter((x) => !x.done).length;
        host.sendMessage(todoNote, { content: args, details: { open } });
      },
    });
    pi.registerCommand("raw-v1", {
      handler: async (args) => pi.appendEntry("t-add", { text: args }),
    });
    pi.registerCommand("raw", {
      handler: async (args) => pi.appendEntry("t-add", JSON.parse(args)),
    });
  };
}

/**
 * pi's SDK over `side`'s SessionManager in a fresh temp folder, with the extension `make`
 * builds around the list its hosts are collected in; the first session is in memory, or a
 * file when `persist` is set.
 */
export async function startTodoSdk(
  side: ManagerSide,
  make: (hosts: TodoHost[]) => ExtensionFactory,
  persist = false,
): Promise<{ sdk: PiSdk; host: () => TodoHost }> {
  useSessionManager(side, CoreSessionManager);
  const root = tempDir("pi-plugins-");
  const cwd = join(root, "work");
  mkdirSync(cwd, { recursive: true });
  const hosts: TodoHost[] = [];
  const sdk = await createPiSdk({
    cwd,
    agentDir: join(root, "agent"),
    sessionManager: persist
      ? SessionManager.create(cwd, join(root, "sessions"))
      : SessionManager.inMemory(cwd),
    extensions: [make(hosts)],
  });
  return { sdk, host: () => hosts[hosts.length - 1] as TodoHost };
}
