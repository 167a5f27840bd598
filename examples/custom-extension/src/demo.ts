/**
 * The demo the README runs: a session that plans a release with the todo extension, forks,
 * refuses a bad append, renders its transcript and reloads itself with damaged lines.
 * Returns the printed lines, so the test checks exactly what `pnpm start` shows.
 */
import {
  type AgentMessage,
  createDeterministicEnv,
  EntryRejectedError,
  type SessionManager,
  SessionManager as SM,
} from "@pi-sessions/core";
import { installPlugins, type PluginHost, renderBranch } from "@pi-sessions/plugins";
import {
  openTitles,
  type TodoState,
  todo,
  todoActivity,
  todoPlugin,
  todoReminder,
} from "./todo-plugin.js";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 0 });
const assistant = (text: string): AgentMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "claude-sonnet-4",
  usage: {
    input: 12,
    output: 8,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 20,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: "stop",
  timestamp: 0,
});

/** One line per todo: `☑ Write the changelog`. */
export function describeTodos(state: TodoState): string[] {
  const lines = state.items.map((i) => `${i.done ? "☑" : "☐"} ${i.title}`);
  return lines.length > 0 ? lines : ["(no todos)"];
}

/** The demo session: returns the manager, the plugin host and the two branch leaves. */
export function buildDemo(): {
  sm: SessionManager;
  host: PluginHost;
  leafA: string;
  leafB: string;
} {
  const sm = SM.inMemory("/work/release", {
    env: createDeterministicEnv({ seed: 42, stepMs: 60_000 }),
  });
  const host = installPlugins(sm, [todoPlugin]);
  sm.appendMessage(user("Plan the 1.0 release."));
  host.appendCustom(todo, { op: "add", id: "changelog", title: "Write the changelog" });
  host.appendCustom(todo, { op: "add", id: "tag", title: "Tag v1.0" });
  // What version 1 of the extension wrote: stored as is, read as version 2.
  sm.appendCustomEntry("todo", { action: "add", text: "Update docs" });
  const fork = sm.appendMessage(assistant("Three todos noted."));

  // Branch A: the changelog and the docs get done, and the model is reminded of the rest.
  host.appendCustom(todo, { op: "done", id: "changelog" });
  sm.appendCustomEntry("todo", { action: "check", text: "Update docs" });
  const open = openTitles(host.branchState(todoPlugin));
  host.appendCustomMessage(
    todoReminder,
    { content: `Open todos: ${open.join(", ")}`, details: { open } },
    false,
  );
  const leafA = sm.getLeafId() as string;

  // Branch B, from the same point: a different plan.
  sm.branch(fork);
  host.appendCustom(todo, { op: "add", id: "blog", title: "Announce on the blog" });
  const leafB = sm.getLeafId() as string;
  return { sm, host, leafA, leafB };
}

/** The lines `pnpm start` prints. */
export function runDemo(): string[] {
  const { sm, host, leafA, leafB } = buildDemo();
  const out: string[] = [];
  const section = (title: string) => out.push("", `== ${title}`);

  section("Todos on branch B (the leaf)");
  out.push(...describeTodos(host.branchState(todoPlugin)));
  sm.branch(leafA);
  section("Todos on branch A");
  out.push(...describeTodos(host.branchState(todoPlugin)));
  const activity = host.projectionState(todoActivity);
  section("Todo operations in the whole file (both branches)");
  out.push(JSON.stringify(activity));

  section("An invalid append is refused before anything is written");
  const count = sm.getEntryCount();
  try {
    sm.appendCustomEntry("todo", { v: 2, op: "add", id: 42 });
  } catch (error) {
    if (!(error instanceof EntryRejectedError)) throw error;
    out.push(error.message);
  }
  out.push(`entries before: ${count}, after: ${sm.getEntryCount()}`);

  section("Transcript of branch A (todo renderers)");
  out.push(
    ...renderBranch(sm, leafA, { renderers: host.registry.renderers(), format: "text" })
      .trimEnd()
      .split("\n"),
  );

  section("Reloading the file with two damaged todo lines");
  const lines = [sm.getHeader(), ...sm.getEntries()].map((r) => JSON.stringify(r));
  const damaged = (id: string, data: unknown) =>
    JSON.stringify({
      type: "custom",
      id,
      parentId: leafB,
      timestamp: "2025-06-01T12:00:00.000Z",
      customType: "todo",
      data,
    });
  lines.push(damaged("d4m4g3d1", { v: 2, op: "done" }), damaged("d4m4g3d2", { v: 3, op: "ship" }));
  const reloaded = SM.fromJsonl(`${lines.join("\n")}\n`);
  const reloadedHost = installPlugins(reloaded, [todoPlugin]);
  out.push(`${reloaded.getEntryCount()} entries kept; plugin diagnostics:`);
  for (const d of reloadedHost.diagnostics()) out.push(`  line ${d.line}: ${d.message}`);
  return out.slice(1);
}
