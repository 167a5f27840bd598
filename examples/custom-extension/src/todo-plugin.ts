/**
 * A typed "todo" extension for pi sessions, written as one plugin definition:
 *
 * - a `todo` custom entry type (extension state the model never sees) with an io-ts codec,
 *   now at version 2, and an upcaster for what version 1 of the extension wrote;
 * - a `todo-reminder` custom message type (content that does reach the model);
 * - a branch reducer: the todo list along the current branch, as pi extensions rebuild their
 *   state from `getBranch()` — so each branch has its own list;
 * - a projection counting todo operations in the whole file, whatever the branch;
 * - renderers for transcripts.
 */
import { defineProjection } from "@pi-sessions/core";
import {
  customEntryType,
  customMessageType,
  decodeCustomEntry,
  definePlugin,
} from "@pi-sessions/plugins";
import { isRight } from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/** Version 2: every operation names the todo it is about by a stable id. */
export const TodoOp = t.union(
  [
    t.type({ op: t.literal("add"), id: t.string, title: t.string }, "TodoAdd"),
    t.type({ op: t.literal("done"), id: t.string }, "TodoDone"),
    t.type({ op: t.literal("reopen"), id: t.string }, "TodoReopen"),
  ],
  "TodoOp",
);
/** A decoded todo operation. */
export type TodoOp = t.TypeOf<typeof TodoOp>;

/** Version 1 (as an older release of the extension wrote it): `{ action, text }`. */
const TodoV1 = t.type({ action: t.keyof({ add: null, check: null }), text: t.string }, "TodoV1");

/** The id v2 derives from a v1 title, so a v1 "check" finds the todo its "add" created. */
export const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** v1 → v2. Throws on data v1 never wrote (the entry is then reported, not folded). */
export function upcastTodoV1(old: unknown): unknown {
  const decoded = TodoV1.decode(old);
  if (decoded._tag === "Left") throw new Error("not a v1 todo ({ action, text })");
  const { action, text } = decoded.right;
  return action === "add"
    ? { op: "add", id: slug(text), title: text }
    : { op: "done", id: slug(text) };
}

/** The `todo` entry type: data is a {@link TodoOp}, stored with `v: 2`. */
export const todo = customEntryType({
  customType: "todo",
  data: TodoOp,
  version: 2,
  upcasters: { 1: upcastTodoV1 },
  render: (op) =>
    op.op === "add"
      ? `☐ todo added: ${op.title} (${op.id})`
      : `${op.op === "done" ? "☑" : "☐"} todo ${op.op}: ${op.id}`,
});

/** The `todo-reminder` message type: tells the model which todos are open. */
export const todoReminder = customMessageType({
  customType: "todo-reminder",
  details: t.type({ open: t.array(t.string) }, "TodoReminderDetails"),
  content: t.string,
  render: ({ details }) => `🔔 reminder sent to the model: ${details.open.length} open todo(s)`,
});

/** One todo on the branch. */
export interface TodoItem {
  readonly id: string;
  readonly title: string;
  readonly done: boolean;
}

/** The todo list along the current branch, in the order the todos were added. */
export interface TodoState {
  readonly items: readonly TodoItem[];
  /** Operations on the branch that named an unknown todo (kept visible, not dropped). */
  readonly unknownIds: readonly string[];
}

/** Folds one operation into the list (pure: returns a new state). */
export function applyTodo(state: TodoState, op: TodoOp): TodoState {
  if (op.op === "add") {
    const items = state.items.filter((i) => i.id !== op.id);
    return { ...state, items: [...items, { id: op.id, title: op.title, done: false }] };
  }
  if (!state.items.some((i) => i.id === op.id)) {
    return { ...state, unknownIds: [...state.unknownIds, op.id] };
  }
  const done = op.op === "done";
  return { ...state, items: state.items.map((i) => (i.id === op.id ? { ...i, done } : i)) };
}

/** Counts todo operations in the whole file (every branch), by kind; unreadable ones apart. */
export const todoActivity = defineProjection<Readonly<Record<TodoOp["op"] | "unreadable", number>>>(
  {
    name: "todo-activity",
    init: () => ({ add: 0, done: 0, reopen: 0, unreadable: 0 }),
    apply: (counts, entry) => {
      if (entry.type !== "custom" || entry.customType !== "todo") return counts;
      // The same reader the plugin uses: v1 data comes back upcast (memoised per entry).
      const read = decodeCustomEntry(todo, entry);
      const kind = isRight(read) ? read.right.value.op : "unreadable";
      return { ...counts, [kind]: counts[kind] + 1 };
    },
  },
);

/** The whole extension. */
export const todoPlugin = definePlugin({
  name: "todo",
  entryTypes: [todo],
  messageTypes: [todoReminder],
  branchState: {
    init: (): TodoState => ({ items: [], unknownIds: [] }),
    apply: (state, item) => (item.kind === "custom" ? applyTodo(state, item.value) : state),
  },
  projections: [todoActivity],
});

/** The open todos of a state, as reminder text. */
export function openTitles(state: TodoState): string[] {
  return state.items.filter((i) => !i.done).map((i) => i.title);
}
