/**
 * Markdown building blocks: inline escaping for metadata, code spans and fences that the
 * enclosed text cannot close, and containment for prose that is itself Markdown.
 */
import { sanitize } from "./text.js";

/**
 * Characters with an inline meaning anywhere: emphasis, code, HTML, tables, entities, math
 * (`$`), and `]`, which every link, image, footnote and reference definition needs unescaped.
 * `[` is left bare on purpose: `\\[` opens LaTeX display math in pi's Markdown (pi-tui) and
 * in math-aware renderers, which then swallow the text up to the next `\\]`; with `]`
 * escaped a bare `[` cannot start anything.
 */
const INLINE_SPECIAL = /[\\`*_\]<>|~&$]/g;

/** A start that would open a heading, list item, quote, setext underline or ordered list. */
const BLOCK_START = /^(?:[#+\-=>]|\d+[.)])/;

/**
 * A bare URL as GitHub-flavoured renderers (marked, cmark-gfm) autolink it: a scheme (or
 * `www.`), then characters that no renderer re-encodes in a link. Backslash escapes inside it
 * would stay in the link (`a\\_b`), so a scheme URL becomes an autolink `<…>`, which every
 * CommonMark renderer reads literally, and a `www.` one gets its dot escaped, so that no
 * renderer links it and its text stays as written.
 */
const BARE_URL = /(?:(?:https?|ftp):\/\/[A-Za-z0-9\-._~:/?#@!$&'()*+,;=%]+|www\.)/gi;

/** Trailing characters that end a sentence rather than the URL (the GFM autolink rule). */
const URL_TRAILER = /[?!.,:;'*_~]+$/;

/** An entity reference: some renderers decode it inside an autolink, others do not. */
const ENTITY = /&#?[A-Za-z0-9]+;/;

/**
 * `url` up to an entity reference, without its trailing punctuation and unbalanced closing
 * parentheses.
 */
function trimUrl(url: string): string {
  const entity = ENTITY.exec(url);
  let end = (entity ? url.slice(0, entity.index) : url).replace(URL_TRAILER, "");
  while (end.endsWith(")")) {
    const open = end.split("(").length - 1;
    const close = end.split(")").length - 1;
    if (close <= open) break;
    end = end.slice(0, -1).replace(URL_TRAILER, "");
  }
  return end;
}

const escapeRun = (run: string): string => run.replace(INLINE_SPECIAL, "\\$&");

/**
 * Escapes text for inline Markdown (names, ids, labels, models): characters with an inline
 * meaning are backslash-escaped, a block marker at the start is escaped too, bare URLs stay
 * intact (see {@link BARE_URL}), and line breaks become spaces, so the text reads the same
 * in CommonMark, GitHub-flavoured renderers and pi's own Markdown, wherever it is placed.
 */
export function escapeInline(text: string): string {
  // Outer whitespace is dropped: four leading spaces would open a code block, and a space
  // before a closing `_` or `*` of emphasis around the text would stop it from closing.
  const flat = sanitize(text)
    .replace(/\s*\n\s*/g, " ")
    .trim();
  let out = "";
  let from = 0;
  const urls = new RegExp(BARE_URL.source, "gi");
  for (let match = urls.exec(flat); match !== null; match = urls.exec(flat)) {
    const at = match.index;
    const found = match[0];
    const url = /^www\.$/i.test(found) ? "" : trimUrl(found);
    if (url === "" || !/:\/\/[^/?#]/.test(url)) {
      // No host after the scheme: only the scheme is passed over, a `www.` inside is seen.
      urls.lastIndex = at + (url === "" ? found.length : found.indexOf("//") + 2);
      if (url !== "") continue;
      out += `${escapeRun(flat.slice(from, at))}${found.slice(0, 3)}\\.`;
    } else {
      urls.lastIndex = at + url.length;
      out += `${escapeRun(flat.slice(from, at))}<${url}>`;
    }
    from = urls.lastIndex;
  }
  out += escapeRun(flat.slice(from));
  out = out
    .replace(BLOCK_START, (mark: string) =>
      /^\d/.test(mark) ? `${mark.slice(0, -1)}\\${mark.slice(-1)}` : `\\${mark}`,
    )
    // `#`s at the end of a heading after a space close it and are not shown.
    .replace(/(\s)(#+)$/, "$1\\$2");
  // pi's Markdown looks for display math (`\\[`) one character into a block, so a text that
  // starts with a backslash and a bracket would open it there; a leading space prevents that
  // and is not shown (a block's leading spaces are dropped).
  return out.startsWith("\\\\[") ? ` ${out}` : out;
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/** An inline code span the text cannot end early (a longer backtick run than any inside). */
export function codeSpan(text: string): string {
  const clean = sanitize(text).replace(/\n/g, " ");
  const ticks = "`".repeat(longestRun(clean, "`") + 1);
  const pad = clean.startsWith("`") || clean.endsWith("`") || clean === "" ? " " : "";
  return `${ticks}${pad}${clean}${pad}${ticks}`;
}

/** A fenced code block the text cannot close early. */
export function codeFence(text: string, lang = ""): string {
  const clean = sanitize(text);
  const fence = "`".repeat(Math.max(3, longestRun(clean, "`") + 1));
  return `${fence}${lang}\n${clean}\n${fence}`;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^( {0,3})(#{1,6})(?=[ \t]|$)/;

/**
 * Prose that is Markdown already (user and model text, summaries), made safe to embed in a
 * transcript whose entries are level-3 headings: ATX headings outside code blocks are demoted
 * three levels (a summary's `# Title` becomes `####`, capped at `######`) so they nest under
 * their entry, and a code fence left open is closed at the end, so it cannot swallow the rest
 * of the transcript.
 */
export function containMarkdown(text: string): string {
  const clean = sanitize(text);
  let open: { ch: string; len: number } | undefined;
  const lines = clean.split("\n").map((line) => {
    const m = FENCE_LINE.exec(line);
    if (!m) {
      if (open) return line;
      return line.replace(
        ATX_HEADING,
        (_h, sp: string, hashes: string) => `${sp}${"#".repeat(Math.min(6, hashes.length + 3))}`,
      );
    }
    const fence = m[1] as string;
    const rest = (m[2] ?? "").trim();
    if (!open) {
      // A backtick fence's info string may not contain backticks (CommonMark 4.5).
      if (!(fence[0] === "`" && rest.includes("`"))) {
        open = { ch: fence[0] as string, len: fence.length };
      }
    } else if (fence[0] === open.ch && fence.length >= open.len && rest === "") {
      open = undefined;
    }
    return line;
  });
  const joined = lines.join("\n");
  return open ? `${joined}\n${open.ch.repeat(open.len)}` : joined;
}
