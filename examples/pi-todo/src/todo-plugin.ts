/**
 * The todo list as a plugin: one `todo` custom entry type (extension state that the model
 * never sees) at version 2, the upcaster for what version 1 wrote, the list folded along the
 * current branch, and a renderer for pi's transcript. Nothing here knows about pi: the same
 * definition works with `installPlugins` on a `SessionManager` and in `renderBranch`.
 */
import { customEntryType, definePlugin } from "@pi-sessions/plugins";
import * as t from "io-ts";

/** Version 2 of the data: an operation on the todo with this id. */
export const TodoOp = t.union([
  t.type({ op: t.literal("add"), id: t.number, title: t.string }),
  t.type({ op: t.literal("done"), id: t.number }),
]);
export type TodoOp = t.TypeOf<typeof TodoOp>;

/** Version 1 wrote `{ text }` for a new todo and had no ids: the upcaster derives one. */
function upcastV1(old: unknown): unknown {
  const text = (old as { text?: unknown } | null)?.text;
  if (typeof text !== "string") throw new Error("a v1 todo has a text");
  return { op: "add", id: 0, title: text };
}

/** The `todo` entry type; its data is stored with `v: 2`. */
export const todo = customEntryType({
  customType: "todo",
  data: TodoOp,
  version: 2,
  upcasters: { 1: upcastV1 },
  render: (op, _entry, ctx) =>
    op.op === "add" ? `☐ #${op.id} ${ctx.escape(op.title)}` : `☑ #${op.id} done`,
});

/** One todo on the branch. */
export interface Todo {
  readonly id: number;
  readonly title: string;
  readonly done: boolean;
}

/** The list on the current branch, oldest first. */
export interface TodoList {
  readonly todos: readonly Todo[];
}

export const todoPlugin = definePlugin({
  name: "todos",
  entryTypes: [todo],
  branchState: {
    init: (): TodoList => ({ todos: [] }),
    // An immer recipe: change the draft; the earlier lists stay as they were.
    recipe: (draft, { value }) => {
      if (value.op === "add") draft.todos.push({ id: value.id, title: value.title, done: false });
      else for (const x of draft.todos) if (x.id === value.id) x.done = true;
    },
  },
});

/** The list as lines, for `/todos`. */
export function formatTodos(list: TodoList): string {
  if (list.todos.length === 0) return "No todos on this branch.";
  return list.todos.map((x) => `${x.done ? "☑" : "☐"} #${x.id} ${x.title}`).join("\n");
}
