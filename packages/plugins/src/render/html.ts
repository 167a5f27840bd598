/**
 * The HTML flavour of the formatter: the same primitives as text and Markdown (see
 * `format.ts`), so every default renderer reads the same in all three. Every method escapes
 * what it is given; the page around the entries (styles, anchors, layout) belongs to the
 * caller.
 */
import type { Fmt } from "./format.js";
import { sanitize } from "./text.js";

const REPLACEMENTS: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text safe in HTML text and in quoted attribute values: `& < > " '` become entities, and
 * control characters and bidi overrides become visible symbols (as {@link sanitize} does), so
 * stored text can neither add markup nor hide what the page says. Never throws.
 */
export function escapeHtml(text: string): string {
  return sanitize(text).replace(/[&<>"']/g, (c) => REPLACEMENTS[c] ?? c);
}

/**
 * The HTML primitives. `href` gives the link of an entry id that is on the page (undefined:
 * the id is shown as code, unlinked). Blocks are `<div class="head">` titles followed by their
 * parts; prose and literal text are `<pre>` runs, so text reads exactly as stored.
 */
export function htmlFmt(href: (id: string) => string | undefined): Fmt {
  const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
  const tag = (id: string | undefined) => (id === undefined ? "" : ` ${code(id)}`);
  const head = (title: string, id: string | undefined) =>
    `<div class="head">${title}${tag(id)}</div>`;
  return {
    kind: "html",
    inline: escapeHtml,
    code,
    strong: (text) => `<b>${escapeHtml(text)}</b>`,
    ref(id) {
      let link: string | undefined;
      try {
        link = href(id);
      } catch {
        link = undefined; // A caller's lookup failing only costs the link.
      }
      return link === undefined ? code(id) : `<a href="${escapeHtml(link)}">${code(id)}</a>`;
    },
    fence: (text) => `<pre class="raw">${escapeHtml(text)}</pre>`,
    prose: (text) => `<pre class="text">${escapeHtml(text)}</pre>`,
    quote: (text) => `<pre class="quote">${escapeHtml(text)}</pre>`,
    note: (text) => `<div class="meta">${text}</div>`,
    block: (title, id, parts) => `${head(title, id)}${parts.filter((p) => p !== "").join("")}`,
    line: head,
    attach: (block, note) => `${block}${note}`,
  };
}
