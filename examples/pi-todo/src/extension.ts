/**
 * The pi extension: `pi -e examples/pi-todo/src/extension.ts`. The plugin's host keeps the
 * todo list of the current branch (restored on every session start, tree move and
 * compaction), refuses malformed todos before pi writes them, and draws them in the
 * transcript with the plugin's renderer.
 *
 *   /todo <title>   add a todo
 *   /done <id>      mark one done
 *   /todos          show the list of this branch
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { installPiPlugin } from "@pi-sessions/plugins/pi";
import { formatTodos, todo, todoPlugin } from "./todo-plugin.js";

export default function todoExtension(pi: ExtensionAPI): void {
  const todos = installPiPlugin(pi, todoPlugin);

  pi.registerCommand("todo", {
    description: "Add a todo: /todo <title>",
    handler: async (args, ctx) => {
      const title = args.trim();
      if (title === "") return ctx.ui.notify("Usage: /todo <title>", "warning");
      const id = Math.max(0, ...todos.state().todos.map((x) => x.id)) + 1;
      todos.append(todo, { op: "add", id, title });
      ctx.ui.notify(`Added #${id}`, "info");
    },
  });

  pi.registerCommand("done", {
    description: "Mark a todo done: /done <id>",
    handler: async (args, ctx) => {
      const id = Number(args.trim());
      // Version 1 stored no ids (its todos read as #0), so #0 names no single todo.
      if (id === 0) {
        return ctx.ui.notify(
          "Todos from version 1 have no id and cannot be marked done",
          "warning",
        );
      }
      if (!todos.state().todos.some((x) => x.id === id && !x.done)) {
        return ctx.ui.notify(`No open todo #${args.trim()}`, "warning");
      }
      todos.append(todo, { op: "done", id });
    },
  });

  pi.registerCommand("todos", {
    description: "Show the todos of this branch",
    handler: async (_args, ctx) => {
      const problems = todos.diagnostics().length;
      const note = problems === 0 ? "" : `\n(${problems} unreadable todo record(s) skipped)`;
      ctx.ui.notify(formatTodos(todos.state()) + note, "info");
    },
  });
}
