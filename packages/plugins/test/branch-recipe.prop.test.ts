/**
 * A branch state written as an immer recipe (`branchState: { init, recipe }`): it folds to the
 * same states as the same rule written as a plain reducer, every state handed out earlier
 * stays exactly as it was after later appends and leaf moves, untouched parts are shared, and
 * neither the states nor the stored entries' data are frozen.
 */
import type { SessionManager } from "@pi-sessions/core";
import {
  customEntryType,
  definePlugin,
  foldBranchState,
  installPlugins,
  PluginDefinitionError,
} from "@pi-sessions/plugins";
import fc from "fast-check";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { fcParams, freshManager, user } from "./plugin-fixtures.js";

const shelf = customEntryType({
  customType: "shelf",
  data: t.union([
    t.type({ op: t.literal("add"), id: t.number, title: t.string }),
    t.type({ op: t.literal("done"), id: t.number }),
    t.type({ op: t.literal("clear") }),
  ]),
});

interface Item {
  id: number;
  title: string;
  done: boolean;
}
interface Shelf {
  items: Item[];
  changes: number;
}

const init = (): Shelf => ({ items: [], changes: 0 });

/** The rule as an immer recipe: mutate the draft, or return a fresh state to clear. */
const withRecipe = definePlugin({
  name: "shelf-recipe",
  entryTypes: [shelf],
  branchState: {
    init,
    recipe: (draft, { value }) => {
      if (value.op === "clear") return init();
      draft.changes++;
      if (value.op === "add") draft.items.push({ id: value.id, title: value.title, done: false });
      else for (const item of draft.items) if (item.id === value.id) item.done = true;
      return undefined;
    },
  },
});

/** The same rule written as a plain reducer with spreads (the oracle, folded, not installed). */
const withApply = definePlugin({
  name: "shelf-apply",
  entryTypes: [shelf],
  branchState: {
    init,
    apply: (state, { value }): Shelf => {
      if (value.op === "clear") return init();
      const changes = state.changes + 1;
      if (value.op === "add") {
        return {
          items: [...state.items, { id: value.id, title: value.title, done: false }],
          changes,
        };
      }
      const items = state.items.map((i) => (i.id === value.id ? { ...i, done: true } : i));
      return { items, changes };
    },
  },
});

type Op =
  | { kind: "add"; id: number; title: string }
  | { kind: "done"; id: number }
  | { kind: "clear" }
  | { kind: "message" }
  | { kind: "branch"; pick: number }
  | { kind: "read" };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant("add"),
      id: fc.nat(5),
      title: fc.string({ maxLength: 4 }),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ kind: fc.constant("done"), id: fc.nat(5) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("clear") }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("message") }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("branch"), pick: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("read") }), weight: 2 },
);

function run(sm: SessionManager, o: Op): void {
  if (o.kind === "add") sm.appendCustomEntry("shelf", { op: "add", id: o.id, title: o.title });
  else if (o.kind === "done") sm.appendCustomEntry("shelf", { op: "done", id: o.id });
  else if (o.kind === "clear") sm.appendCustomEntry("shelf", { op: "clear" });
  else if (o.kind === "message") sm.appendMessage(user("m"));
  else if (o.kind === "branch") {
    const entries = sm.getEntries();
    const target = entries[o.pick % Math.max(1, entries.length)];
    if (target) sm.branch(target.id);
  }
}

describe("branch state as an immer recipe", () => {
  it(`equals the plain reducer's fold and never changes a state handed out (numRuns ${fcParams(200).numRuns})`, () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const sm = freshManager();
        const host = installPlugins(sm, [withRecipe]);
        const handedOut: Array<{ state: Shelf; copy: Shelf }> = [];
        for (const o of ops) {
          run(sm, o);
          const state = host.branchState<Shelf>(withRecipe);
          expect(state).toEqual(foldBranchState(withApply, sm.getBranch()));
          if (o.kind === "read") handedOut.push({ state, copy: structuredClone(state) });
        }
        for (const { state, copy } of handedOut) expect(state).toEqual(copy);
        // Not frozen: neither the states nor the stored data the recipe copied into them.
        expect(Object.isFrozen(host.branchState(withRecipe))).toBe(false);
        for (const e of sm.getEntries()) {
          if (e.type === "custom") expect(Object.isFrozen(e.data)).toBe(false);
        }
        host.uninstall();
      }),
      fcParams(200),
    );
  });

  it("shares what the recipe did not touch, copies what it did", () => {
    const sm = freshManager();
    const host = installPlugins(sm, [withRecipe]);
    sm.appendCustomEntry("shelf", { op: "add", id: 1, title: "a" });
    sm.appendCustomEntry("shelf", { op: "add", id: 2, title: "b" });
    const before = host.branchState<Shelf>(withRecipe);
    sm.appendCustomEntry("shelf", { op: "done", id: 2 });
    const after = host.branchState<Shelf>(withRecipe);
    expect(after.items[0]).toBe(before.items[0]);
    expect(after.items[1]).not.toBe(before.items[1]);
    expect(before.items[1]).toEqual({ id: 2, title: "b", done: false });
    expect(after.items[1]).toEqual({ id: 2, title: "b", done: true });
  });

  it("definePlugin takes apply() or recipe(), not both, and not neither", () => {
    const both = { init, apply: (s: Shelf) => s, recipe: () => undefined };
    expect(() => definePlugin({ name: "x", branchState: both as never })).toThrow(
      new PluginDefinitionError('plugin "x": branchState takes apply() or recipe(), not both'),
    );
    expect(() => definePlugin({ name: "x", branchState: { init } as never })).toThrow(
      'plugin "x": branchState needs init() and apply() or recipe()',
    );
    expect(() => definePlugin({ name: "x", branchState: 7 as never })).toThrow(
      PluginDefinitionError,
    );
  });
});
