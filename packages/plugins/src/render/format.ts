/**
 * The output flavours (text, Markdown and, in `html.ts`, HTML) behind one small interface, so
 * each default renderer is written once and every format is derived from it. Every method
 * takes raw (unescaped) text and does its own escaping.
 */
import { codeFence, codeSpan, containMarkdown, escapeInline } from "./markdown.js";
import { prefixLines, sanitize } from "./text.js";
import type { RenderContext, RenderFormat } from "./types.js";

/**
 * Every output of the formatter: the flavours a renderer writes, and HTML, which the default
 * renderers write too and where a custom renderer's text is shown escaped (see
 * `renderEntryHtml`).
 */
export type OutputFormat = RenderFormat | "html";

/** Formatting primitives of one flavour. */
export interface Fmt {
  /** The flavour, for the rare phrase that differs by more than its markup. */
  readonly kind: OutputFormat;
  /** Literal emphasised words (a part's lead-in). */
  strong(text: string): string;
  /** Another entry's id: a link in HTML when that entry is on the page, else code. */
  ref(id: string): string;
  /** One literal inline run (names, labels, models). */
  inline(text: string): string;
  /** Inline code (ids, tool names, commands). */
  code(text: string): string;
  /** A block of literal text (tool output, JSON). */
  fence(text: string, lang?: string): string;
  /** Text that is Markdown already (user/model text, summaries). */
  prose(text: string): string;
  /** Quoted text (thinking). */
  quote(text: string): string;
  /** A de-emphasised line; `text` is already formatted. */
  note(text: string): string;
  /** A titled block: `title` and `parts` are already formatted; empty parts are dropped. */
  block(title: string, id: string | undefined, parts: readonly string[]): string;
  /** A one-line entry; `text` is already formatted. */
  line(text: string, id: string | undefined): string;
  /** `block` with a note attached under it (own paragraph, still part of the block). */
  attach(block: string, note: string): string;
}

const oneLine = (text: string): string => sanitize(text).replace(/\n/g, " ");

/** How a flavour lays out a titled block and a one-line entry; the rest is the same. */
interface Layout {
  /** The tag of an entry id, appended to a heading or a line. */
  tag(id: string): string;
  heading(title: string): string;
  /** The non-empty parts, joined by blank lines, placed under the heading. */
  hang(body: string): string;
  lineText(text: string): string;
}

/** `block` and `line` of a flavour: both end with the id tag, a block drops empty parts. */
function titled(layout: Layout): Pick<Fmt, "block" | "line"> {
  const tagged = (text: string, id: string | undefined) =>
    id === undefined ? text : `${text}${layout.tag(id)}`;
  return {
    block(title, id, parts) {
      const head = tagged(layout.heading(title), id);
      const body = parts.filter((p) => p !== "");
      return body.length === 0 ? head : `${head}${layout.hang(body.join("\n\n"))}`;
    },
    line: (text, id) => tagged(layout.lineText(text), id),
  };
}

const markdownFmt: Fmt = {
  kind: "markdown",
  strong: (text) => `**${escapeInline(text)}**`,
  ref: codeSpan,
  inline: escapeInline,
  code: codeSpan,
  fence: codeFence,
  prose: containMarkdown,
  quote: (text) => prefixLines(containMarkdown(text), "> "),
  note: (text) => `_${text}_`,
  ...titled({
    tag: (id) => ` · ${codeSpan(id)}`,
    heading: (title) => `### ${title}`,
    hang: (body) => `\n\n${body}`,
    lineText: (text) => `_${text}_`,
  }),
  attach: (block, note) => `${block}\n\n${note}`,
};

const textFmt: Fmt = {
  kind: "text",
  strong: oneLine,
  ref: oneLine,
  inline: oneLine,
  code: oneLine,
  fence: sanitize,
  prose: sanitize,
  quote: (text) => prefixLines(sanitize(text), "| "),
  note: (text) => `(${text})`,
  ...titled({
    tag: (id) => ` [${oneLine(id)}]`,
    heading: (title) => title,
    hang: (body) => `\n${prefixLines(body, "  ")}`,
    lineText: (text) => text,
  }),
  attach: (block, note) => `${block}\n  ${note}`,
};

/** The primitives of a format. */
export function fmtOf(format: RenderFormat): Fmt {
  return format === "markdown" ? markdownFmt : textFmt;
}

/** The primitives for a render context. */
export function fmtFor(ctx: RenderContext): Fmt {
  return fmtOf(ctx.format);
}
