/**
 * The two output flavours behind one small interface, so each default renderer is written
 * once. Every method takes raw (unescaped) text and does its own escaping.
 */
import { codeFence, codeSpan, containMarkdown, escapeInline } from "./markdown.js";
import { prefixLines, sanitize } from "./text.js";
import type { RenderContext, RenderFormat } from "./types.js";

/** Formatting primitives of one flavour. */
export interface Fmt {
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

const markdownFmt: Fmt = {
  inline: escapeInline,
  code: codeSpan,
  fence: codeFence,
  prose: containMarkdown,
  quote: (text) => prefixLines(containMarkdown(text), "> "),
  note: (text) => `_${text}_`,
  block(title, id, parts) {
    const head = `### ${title}${id === undefined ? "" : ` · ${codeSpan(id)}`}`;
    const body = parts.filter((p) => p !== "");
    return body.length === 0 ? head : `${head}\n\n${body.join("\n\n")}`;
  },
  line: (text, id) => `_${text}_${id === undefined ? "" : ` · ${codeSpan(id)}`}`,
  attach: (block, note) => `${block}\n\n${note}`,
};

const textFmt: Fmt = {
  inline: oneLine,
  code: oneLine,
  fence: sanitize,
  prose: sanitize,
  quote: (text) => prefixLines(sanitize(text), "| "),
  note: (text) => `(${text})`,
  block(title, id, parts) {
    const head = `${title}${id === undefined ? "" : ` [${oneLine(id)}]`}`;
    const body = parts.filter((p) => p !== "");
    return body.length === 0 ? head : `${head}\n${prefixLines(body.join("\n\n"), "  ")}`;
  },
  line: (text, id) => `${text}${id === undefined ? "" : ` [${oneLine(id)}]`}`,
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
