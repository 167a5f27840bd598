/**
 * The HTML page through the library API with a plugin's renderers: a custom type a plugin
 * renders shows in the page through the same registry as in the
 * Markdown transcript, escaped, in its entry's article; without the plugin the built-in
 * default shows. The CLI itself loads no plugins, so this is where a plugin reaches the page.
 */
import { definePlugin, PluginRegistry, renderBranch } from "@pi-sessions/plugins";
import { beforeEach, describe, expect, it } from "vitest";
import { renderHtmlPage } from "../src/export/html-page.js";
import { type SessionView, viewOf } from "../src/export/session-view.js";
import { loadSession } from "../src/session/load-session.js";
import { type TempRoot, tempRoot, writeDemoSession } from "./export-fixtures.js";

let tmp: TempRoot;
beforeEach(() => {
  tmp = tempRoot();
});

/** A plugin with a renderer for the `todo-state` custom type (plugins' `entryRenderers`). */
const todos = definePlugin({
  name: "todos",
  entryRenderers: {
    "todo-state": (entry, ctx) =>
      `To do (${ctx.format}): ${String((entry as { data?: { note?: unknown } }).data?.note)}`,
  },
});

function page(s: SessionView, renderers?: ReturnType<PluginRegistry["renderers"]>): string {
  return renderHtmlPage({
    header: s.header,
    entries: s.entries,
    path: s.branch(s.leafId),
    scope: "tree",
    sessionName: s.name,
    leafIsCurrent: true,
    source: s.path,
    getLabel: s.label,
    ...(renderers === undefined ? {} : { renderers }),
  });
}

/** The `<article>` of the first entry of a type. */
function articleOf(html: string, type: string): string {
  const at = html.indexOf(`class="entry t-${type}`);
  expect(at, type).toBeGreaterThan(0);
  return html.slice(at, html.indexOf("</article>", at));
}

describe("renderHtmlPage with a plugin's renderers", () => {
  it("shows a plugin's custom type through its renderer, escaped, as in the Markdown", () => {
    const hostile = "<img src=x onerror=alert(1)> & more";
    const texts = Array.from({ length: 16 }, (_, i) => (i === 10 ? hostile : undefined));
    const demo = writeDemoSession(tmp.project, { texts });
    const s = viewOf(loadSession(demo.path));
    const renderers = PluginRegistry.empty().register(todos).renderers();

    const withPlugin = articleOf(page(s, renderers), "custom");
    expect(withPlugin).toContain(
      '<pre class="text">To do (text): &lt;img src=x onerror=alert(1)&gt; &amp; more</pre>',
    );
    expect(withPlugin).not.toContain("Custom entry");
    // The same registry answers the Markdown transcript.
    const markdown = renderBranch(s.entries.slice(), s.leafId, { renderers });
    expect(markdown).toContain("To do (markdown): <img src=x onerror=alert(1)> & more");

    const without = articleOf(page(s), "custom");
    expect(without).toContain('<div class="head">Custom entry · todo-state</div>');
    expect(without).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(without).not.toContain("To do");
  });
});
