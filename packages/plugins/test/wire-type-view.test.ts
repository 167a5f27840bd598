/**
 * A wire type's view as the formatter writes it: every part kind in text, Markdown and HTML,
 * escaped for each; the defaults of a bare definition; a view that throws; and the renderer
 * registry's rules (one view per wire name, `override`, `merge`).
 */
import { defineEntryType, entryCodec, SessionManager } from "@pi-sessions/core";
import {
  createRegistry,
  createRenderers,
  DuplicateRendererError,
  definePlugin,
  installPlugins,
  renderEntry,
  renderEntryHtml,
  wireType,
} from "@pi-sessions/plugins";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { bookmark } from "./bookmark-plugin.js";

const stamp = defineEntryType({
  type: "stamp",
  codec: entryCodec("stamp", { by: t.string, output: t.string }),
  references: [],
  searchText: null,
  role: "none",
});

const entry = {
  type: "stamp",
  id: "s1",
  parentId: null,
  timestamp: "2026-01-01T00:00:00.000Z",
  by: "<b>*me*</b>",
  output: "line 1\n```\nline 3",
};

const every = wireType(stamp, {
  describe: (s) => ({
    title: [{ strong: "Stamp" }, " by ", s.by, " ", { code: "x`y" }],
    parts: [
      { note: ["at ", { ref: "a1" }] },
      { literal: s.output },
      { prose: "# heading" },
      { json: { n: 1 } },
    ],
  }),
});
const renderers = createRenderers().withWireType(every);

describe("a wire type's description in every output", () => {
  it("text: plain, ids in brackets, parts indented", () => {
    expect(renderEntry(entry, { renderers, format: "text" })).toBe(
      [
        "Stamp by <b>*me*</b> x`y [s1]",
        "  (at a1)",
        "",
        "  line 1",
        "  ```",
        "  line 3",
        "",
        "  # heading",
        "",
        "  {",
        '    "n": 1',
        "  }",
      ].join("\n"),
    );
  });

  it("Markdown: metadata escaped, code spans and fences longer than their content", () => {
    const md = renderEntry(entry, { renderers });
    expect(md.split("\n")[0]).toBe("### **Stamp** by \\<b\\>\\*me\\*\\</b\\> ``x`y`` · `s1`");
    expect(md).toContain("_at `a1`_");
    expect(md).toContain("````\nline 1\n```\nline 3\n````");
    expect(md).toContain("#### heading"); // prose nests under the entry's level-3 title
  });

  it("HTML: every string escaped, no markup of the plugin's own", () => {
    const html = renderEntryHtml(entry, { renderers, entryHref: (id) => `#${id}` });
    expect(html).toBe(
      '<div class="head"><b>Stamp</b> by &lt;b&gt;*me*&lt;/b&gt; <code>x`y</code> <code>s1</code></div>' +
        '<div class="meta">at <a href="#a1"><code>a1</code></a></div>' +
        '<pre class="raw">line 1\n```\nline 3</pre>' +
        '<pre class="text"># heading</pre>' +
        '<pre class="raw">{\n  &quot;n&quot;: 1\n}</pre>',
    );
  });

  it("a literal part is cut to maxTextLength; prose never is", () => {
    const long = { ...entry, output: "x".repeat(50) };
    const text = renderEntry(long, { renderers, format: "text", maxTextLength: 10 });
    expect(text).not.toContain("x".repeat(11));
    expect(text).toContain("# heading");
  });
});

describe("defaults and failures", () => {
  it("a bare definition reads as its wire name and its JSON; its summary is that name", () => {
    const plugin = definePlugin({ name: "stamps", wireTypes: [stamp] });
    const bare = createRenderers().withWireType(plugin.wireTypes?.[0] as never);
    expect(renderEntry(entry, { renderers: bare, format: "text", showIds: false })).toMatch(
      /^stamp\n {2}\{\n {4}"type": "stamp",/,
    );
    expect(bare.summaryOf(entry)).toBe("stamp");
    // Without `summary`, a described type's line is its title as plain text.
    expect(renderers.summaryOf(entry)).toBe("Stamp by <b>*me*</b> x`y");
  });

  it("a view that throws gets the unknown-type default and a note; its summary is undefined", () => {
    const broken = createRenderers().withWireType(
      wireType(stamp, {
        summary: () => {
          throw new Error("no");
        },
        describe: () => {
          throw new Error("boom");
        },
      }),
    );
    const text = renderEntry(entry, { renderers: broken, format: "text" });
    expect(text).toMatch(/^Entry of unknown type stamp \[s1\]/);
    expect(text).toContain('(view of entry type "stamp" failed (boom); default rendering shown)');
    expect(broken.summaryOf(entry)).toBeUndefined();
    expect(broken.summaryOf({ ...entry, type: "other" })).toBeUndefined();
  });

  it("wireType refuses what is not a defined, non-built-in type", () => {
    expect(() => wireType({ ...stamp })).toThrow("declare it with defineEntryType");
    const model = defineEntryType({ ...stamp, type: "model_change" });
    expect(() => wireType(model)).toThrow('entry type "model_change" is built in');
    expect(() => wireType(stamp, { describe: 3 as never })).toThrow("describe must be a function");
  });
});

describe("a plugin made by hand with a built-in's wire type", () => {
  // definePlugin and wireType refuse a built-in's name; a frozen object of a plugin's shape
  // must not get past the registry either: its guard would refuse every user message, and its
  // view would render them.
  const message = defineEntryType({ ...stamp, type: "message" });
  const base = definePlugin({ name: "shadow" });
  const hijack = { kind: "wire", definition: message, view: { describe: () => ({ title: "X" }) } };
  const shadow = Object.freeze({ ...base, wireTypes: Object.freeze([hijack]) });

  it("is refused by the registry and by installPlugins; nothing is installed", () => {
    expect(() => createRegistry([shadow as never])).toThrow(
      'Not a plugin (use definePlugin): "shadow" (wireTypes: entry type "message" is built in)',
    );
    // A wireTypes that is not an array is a refusal too, not a crash of the registry.
    const odd = Object.freeze({ ...base, wireTypes: "bookmark" });
    expect(() => createRegistry([odd as never])).toThrow(
      'Not a plugin (use definePlugin): "shadow" (its wireTypes is not an array)',
    );
    const sm = SessionManager.inMemory("/tmp/p");
    expect(() => installPlugins(sm, [shadow as never])).toThrow("Not a plugin");
    sm.appendMessage({ role: "user", content: "hi", timestamp: 1 });
    expect(sm.getEntries().map((e) => e.type)).toEqual(["message"]);
  });

  it("is refused by the renderers' withWireType", () => {
    expect(() => createRenderers().withWireType(hijack as never)).toThrow(
      'withWireType: entry type "message" is built in',
    );
  });
});

describe("the renderer registry's wire types", () => {
  it("one view per wire name unless override; merge carries them; the old value never changes", () => {
    const other = wireType(stamp, { describe: () => ({ title: "other" }) });
    expect(() => renderers.withWireType(other)).toThrow(DuplicateRendererError);
    expect(() => renderers.withWireType(other)).toThrow('A view of entry type "stamp"');
    const replaced = renderers.withWireType(other, { override: true });
    expect(renderEntry(entry, { renderers: replaced, format: "text", showIds: false })).toBe(
      "other",
    );
    expect(renderers.wireType("stamp")).toBe(every);
    const merged = createRenderers().withWireType(wireType(bookmark)).merge(renderers);
    expect(merged.wireTypes()).toEqual(["bookmark", "stamp"]);
    expect(() => renderers.withWireType(stamp as never)).toThrow("takes a wireType(...) value");
  });
});
