import type { CustomMessage } from "@pi-sessions/core";
import {
  createRenderers,
  DuplicateRendererError,
  type EntryRenderer,
  registerEntryRenderer,
  registerMessageRenderer,
  renderEntry,
} from "@pi-sessions/plugins";
import { fcOptions, fcRuns } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const runs = fcRuns(200);
const base = { id: "e1", parentId: null, timestamp: "2025-01-01T00:00:00.000Z" };
const todo = { ...base, type: "custom", customType: "todo", data: { items: ["a", "b"] } };
const reminder = {
  ...base,
  type: "custom_message",
  customType: "reminder",
  content: "Run the tests",
  display: true,
  details: { level: 2 },
};

describe("Renderers registry", () => {
  it("registrations return new registries and leave the old ones unchanged", () => {
    const empty = createRenderers();
    const one = registerEntryRenderer(empty, "todo", () => "T");
    const two = registerMessageRenderer(one, "reminder", () => "R");
    expect(empty.entryTypes()).toEqual([]);
    expect(one.messageTypes()).toEqual([]);
    expect(two.entryTypes()).toEqual(["todo"]);
    expect(two.messageTypes()).toEqual(["reminder"]);
    expect(Object.isFrozen(two)).toBe(true);
  });

  it("a second renderer for a customType is refused unless override", () => {
    const one = createRenderers().withEntryRenderer("todo", () => "A");
    expect(() => one.withEntryRenderer("todo", () => "B")).toThrow(DuplicateRendererError);
    expect(() => one.withEntryRenderer("todo", () => "B")).toThrow(
      'A entry renderer for customType "todo" is already registered (pass { override: true } to replace it)',
    );
    const replaced = one.withEntryRenderer("todo", () => "B", { override: true });
    expect(renderEntry(todo, { renderers: replaced })).toBe("B");
    expect(renderEntry(todo, { renderers: one })).toBe("A");
    // Entry and message renderers are separate namespaces.
    expect(one.withMessageRenderer("todo", () => "M").messageTypes()).toEqual(["todo"]);
  });

  it("bad arguments are rejected with a clear error", () => {
    expect(() => createRenderers().withEntryRenderer("", () => "x")).toThrow(
      "Entry renderer: customType must be a non-empty string",
    );
    expect(() => createRenderers().withMessageRenderer("t", 3 as never)).toThrow(
      'Message renderer for "t" must be a function',
    );
  });

  it("merge combines registries and refuses clashes unless override", () => {
    const a = createRenderers().withEntryRenderer("x", () => "a");
    const b = createRenderers()
      .withEntryRenderer("x", () => "b")
      .withMessageRenderer("m", () => "m");
    expect(() => a.merge(b)).toThrow(DuplicateRendererError);
    const merged = a.merge(b, { override: true });
    expect(merged.entryTypes()).toEqual(["x"]);
    expect(merged.messageTypes()).toEqual(["m"]);
    expect(renderEntry({ ...todo, customType: "x" }, { renderers: merged })).toBe("b");
  });

  it(`registry operations are pure: any sequence leaves every earlier registry as it was (${runs} runs)`, () => {
    const op = fc.record({
      kind: fc.constantFrom("entry", "message"),
      type: fc.constantFrom("a", "b", "c"),
      override: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        let current = createRenderers();
        const history: { reg: typeof current; entries: string[]; messages: string[] }[] = [];
        for (const o of ops) {
          history.push({
            reg: current,
            entries: current.entryTypes(),
            messages: current.messageTypes(),
          });
          const had = (o.kind === "entry" ? current.entryTypes() : current.messageTypes()).includes(
            o.type,
          );
          const fn = () => `${o.kind}:${o.type}`;
          try {
            current =
              o.kind === "entry"
                ? current.withEntryRenderer(o.type, fn, { override: o.override })
                : current.withMessageRenderer(o.type, fn, { override: o.override });
            expect(!had || o.override).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(DuplicateRendererError);
            expect(had && !o.override).toBe(true);
          }
        }
        for (const h of history) {
          expect(h.reg.entryTypes()).toEqual(h.entries);
          expect(h.reg.messageTypes()).toEqual(h.messages);
        }
      }),
      fcOptions(200),
    );
  });
});

describe("custom renderers in renderEntry", () => {
  it("an entry renderer gets the entry and the context", () => {
    const seen: unknown[] = [];
    const fn: EntryRenderer = (entry, ctx) => {
      seen.push(entry, ctx.format, ctx.depth);
      return `todo: ${ctx.escape("a*b")}`;
    };
    const renderers = createRenderers().withEntryRenderer("todo", fn);
    expect(renderEntry(todo, { renderers })).toBe("todo: a\\*b");
    expect(renderEntry(todo, { renderers, format: "text" })).toBe("todo: a*b");
    expect(seen).toEqual([todo, "markdown", 0, todo, "text", 0]);
  });

  it("undefined falls back to the default; a throw or a non-string too, with a note", () => {
    const fallback = createRenderers().withEntryRenderer("todo", () => undefined);
    const plain = renderEntry(todo);
    expect(renderEntry(todo, { renderers: fallback })).toBe(plain);
    const throwing = createRenderers().withEntryRenderer("todo", () => {
      throw new Error("no *way*");
    });
    expect(renderEntry(todo, { renderers: throwing })).toBe(
      `${plain}\n\n_entry renderer for "todo" failed (no \\*way\\*); default rendering shown_`,
    );
    const wrong = createRenderers().withEntryRenderer("todo", () => 5 as unknown as string);
    expect(renderEntry(todo, { renderers: wrong, format: "text" })).toBe(
      `${renderEntry(todo, { format: "text" })}\n  (entry renderer for "todo" failed (returned number, not a string); default rendering shown)`,
    );
  });

  it("a message renderer renders custom_message entries and custom-role messages", () => {
    const got: CustomMessage[] = [];
    const renderers = createRenderers().withMessageRenderer("reminder", (m) => {
      got.push(m);
      return `reminder: ${m.content as string}`;
    });
    expect(renderEntry(reminder, { renderers })).toBe("reminder: Run the tests");
    expect(got[0]).toEqual({
      role: "custom",
      customType: "reminder",
      content: "Run the tests",
      display: true,
      details: { level: 2 },
      timestamp: Date.parse(base.timestamp),
    });
    const asMessage = { ...base, type: "message", message: { ...got[0], content: "again" } };
    expect(renderEntry(asMessage, { renderers })).toBe("reminder: again");
    // An entry renderer of the same name does not apply to messages.
    const entryOnly = createRenderers().withEntryRenderer("reminder", () => "wrong");
    expect(renderEntry(reminder, { renderers: entryOnly })).toBe(renderEntry(reminder));
  });

  it("the entry's label is attached under custom output too", () => {
    const renderers = createRenderers().withEntryRenderer("todo", () => "T");
    expect(
      renderEntry(todo, { renderers, getLabel: (id) => (id === "e1" ? "mine" : undefined) }),
    ).toBe("T\n\n_label: mine_");
  });
});
