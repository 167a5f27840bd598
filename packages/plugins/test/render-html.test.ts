/**
 * The HTML flavour of the formatter: the same description per type as text and Markdown,
 * links to entries on the page, a plugin's custom renderer shown as escaped text, and no
 * markup from entry content whatever the entry holds (property).
 */
import {
  createRenderers,
  customEntryType,
  definePlugin,
  PluginRegistry,
  renderEntry,
  renderEntryHtml,
} from "@pi-sessions/plugins";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { anyEntry } from "./render-arbitraries.js";

/** Every tag the HTML flavour writes; any other tag in its output came from the data. */
const OUR_TAGS = new Set(["div", "pre", "code", "a", "b"]);

/** The tags in a fragment, and any `<` that opens none of them (markup from the data). */
function tagsOf(html: string): { tags: string[]; stray: number } {
  const tags = [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)[\s>]/g)].map((m) => m[1] ?? "");
  const opens = html.split("<").length - 1;
  return { tags, stray: opens - tags.length };
}

/** The text a fragment shows: tags dropped, the five entities decoded. */
const shownText = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

const TS = "2025-01-01T00:00:00.000Z";
const HOSTILE = `<script>alert("x")</script> & 'q'`;

describe("renderEntryHtml", () => {
  it("says what the Markdown says, in HTML, with every value escaped", () => {
    const entry = {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: TS,
      message: { role: "user", content: HOSTILE, timestamp: 1 },
    };
    const html = renderEntryHtml(entry);
    expect(html).toBe(
      '<div class="head">User <code>u1</code></div><pre class="text">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</pre>',
    );
    // Same title and text as the text flavour: one description, three outputs.
    expect(renderEntry(entry, { format: "text" })).toBe(`User [u1]\n  ${HOSTILE}`);
  });

  it("links a reference to an entry on the page, and shows it as code otherwise", () => {
    const label = { type: "label", id: "l1", parentId: "a1", timestamp: TS, targetId: "a1" };
    const target = { type: "message", id: "a1", message: { role: "assistant", content: [] } };
    const linked = renderEntryHtml(
      { ...label, label: "<b>" },
      {
        showIds: false,
        getEntry: (id) => (id === "a1" ? (target as never) : undefined),
        entryHref: (id) => `#e-${id}`,
      },
    );
    expect(linked).toBe(
      '<div class="head">Label &quot;&lt;b&gt;&quot; on <a href="#e-a1"><code>a1</code></a> (assistant)</div>',
    );
    const unlinked = renderEntryHtml(label, { showIds: false, entryHref: () => undefined });
    expect(unlinked).toBe('<div class="head">Label cleared on <code>a1</code></div>');
  });

  it("shows a plugin's custom type through its renderer, as escaped text", () => {
    const ticket = customEntryType({
      customType: "ticket",
      data: t.type({ title: t.string }),
      render: (v, _entry, ctx) => `ticket ${ctx.format}: ${v.title}`,
    });
    const plugin = definePlugin({ name: "tickets", entryTypes: [ticket] });
    const renderers = PluginRegistry.empty().register(plugin).renderers();
    const entry = {
      type: "custom",
      id: "c1",
      parentId: null,
      timestamp: TS,
      customType: "ticket",
      data: { title: "<img src=x onerror=alert(1)>" },
    };
    expect(renderEntryHtml(entry, { renderers, showIds: false })).toBe(
      '<pre class="text">ticket text: &lt;img src=x onerror=alert(1)&gt;</pre>',
    );
    // Without the plugin, the built-in default for `custom` entries.
    expect(renderEntryHtml(entry, { showIds: false })).toMatch(
      /^<div class="head">Custom entry · ticket<\/div><pre class="raw">\{/,
    );
  });

  it("falls back to the default with a note when a renderer throws", () => {
    const renderers = createRenderers().withEntryRenderer("boom", () => {
      throw new Error("<bad>");
    });
    const html = renderEntryHtml(
      { type: "custom", id: "c2", customType: "boom", data: 1 },
      { renderers, showIds: false },
    );
    expect(html).toContain('<div class="head">Custom entry · boom</div>');
    expect(html).toContain("entry renderer for &quot;boom&quot; failed (&lt;bad&gt;)");
  });

  const params = fcOptions(500);
  it(`writes no markup from entry content for any record, with shared or fresh options (numRuns ${params.numRuns})`, () => {
    const text = fc.string({ unit: fc.constantFrom("<", ">", "&", '"', "'", "a", "/", " ") });
    const loud = createRenderers()
      .withEntryRenderer("note", (e) => JSON.stringify(e))
      .withMessageRenderer("note", (m) => `<i>${String(m.content)}</i>`);
    /** One options object for every run, as a page passes it for each of its entries. */
    let label = "";
    const shared = { renderers: loud, getLabel: () => label, entryHref: (id: string) => `#${id}` };
    fc.assert(
      fc.property(anyEntry, fc.string(), text, fc.boolean(), (entry, first, l, withLoud) => {
        label = l;
        // What the shared options gave for another entry does not leak into this one.
        renderEntryHtml({ type: "custom", id: first, customType: "note", data: first }, shared);
        const options = { ...shared, renderers: withLoud ? loud : undefined };
        const html = renderEntryHtml(entry, options);
        if (withLoud) expect(renderEntryHtml(entry, shared)).toBe(html);
        const { tags, stray } = tagsOf(html);
        expect(tags.filter((tag) => !OUR_TAGS.has(tag))).toEqual([]);
        expect(stray).toBe(0);
        // Nothing of the label is lost: it reads as written.
        if (label.trim() !== "" && typeof (entry as { id?: unknown })?.id === "string") {
          expect(shownText(html)).toContain(label.replace(/\s*\n\s*/g, " "));
        }
      }),
      params,
    );
  });
});
