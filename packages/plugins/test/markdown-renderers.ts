/**
 * What a reader sees when real Markdown renderers draw a text: CommonMark's reference
 * implementation (`commonmark`), a GitHub-flavoured one (`marked`, which pi-tui also parses
 * with) and pi's own terminal component (pi-tui's `Markdown`, LaTeX math included). Each gives
 * the visible text, whitespace runs folded to one space, so tests compare what people read.
 */
import { stripVTControlCharacters } from "node:util";
import { Markdown, type MarkdownTheme } from "@earendil-works/pi-tui";
import { HtmlRenderer, Parser } from "commonmark";
import { Marked } from "marked";

/** Whitespace runs folded to one space, ends trimmed: how a paragraph reads. */
export const folded = (text: string): string => text.replace(/\s+/g, " ").trim();

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" };

/** The text of rendered HTML: tags dropped, the entities HTML renderers write decoded. */
function htmlText(html: string): string {
  return folded(
    html
      .replace(/<[^>]*>/g, "")
      .replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ENTITIES[e] ?? ""),
  );
}

/** As CommonMark 0.31 (the reference implementation) shows `markdown`. */
export function commonMarkText(markdown: string): string {
  return htmlText(new HtmlRenderer().render(new Parser().parse(markdown)));
}

const gfm = new Marked({ gfm: true, async: false });

/** As a GitHub-flavoured renderer (marked, bare-URL autolinks on) shows `markdown`. */
export function gfmText(markdown: string): string {
  return htmlText(gfm.parse(markdown) as string);
}

const plain = (text: string) => text;

/** pi-tui's Markdown theme without colours: every style is the identity. */
export const PLAIN_MARKDOWN_THEME: MarkdownTheme = {
  heading: plain,
  link: plain,
  linkUrl: plain,
  code: plain,
  codeBlock: plain,
  codeBlockBorder: plain,
  quote: plain,
  quoteBorder: plain,
  hr: plain,
  listBullet: plain,
  bold: plain,
  italic: plain,
  strikethrough: plain,
  underline: plain,
};

/** Visible text of rendered terminal lines (ANSI and OSC sequences stripped). */
export function terminalText(lines: readonly string[]): string {
  return folded(lines.map((line) => stripVTControlCharacters(line)).join(" "));
}

/** As pi's Markdown component shows `markdown`, wide enough that nothing wraps. */
export function piMarkdownText(markdown: string, theme = PLAIN_MARKDOWN_THEME): string {
  return terminalText(new Markdown(markdown, 0, 0, theme).render(markdown.length + 20));
}
