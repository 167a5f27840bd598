/**
 * Markdown building blocks: inline escaping for metadata, code spans and fences that the
 * enclosed text cannot close, and containment for prose that is itself Markdown.
 */
import { sanitize } from "./text.js";

/** Characters with an inline meaning anywhere: emphasis, code, links, HTML, tables, entities. */
const INLINE_SPECIAL = /[\\`*_[\]<>|~&]/g;

/** A start that would open a heading, list item, quote, setext underline or ordered list. */
const BLOCK_START = /^(\s*)([#+\-=>]|\d+[.)])/;

/**
 * Escapes text for inline Markdown (names, ids, labels, models): characters with an inline
 * meaning are backslash-escaped, a block marker at the start is escaped too, and line breaks
 * become spaces, so the text stays one literal run wherever it is placed.
 */
export function escapeInline(text: string): string {
  return sanitize(text)
    .replace(/\s*\n\s*/g, " ")
    .replace(INLINE_SPECIAL, "\\$&")
    .replace(BLOCK_START, (_m, space: string, mark: string) =>
      /^\d/.test(mark) ? `${space}${mark.slice(0, -1)}\\${mark.slice(-1)}` : `${space}\\${mark}`,
    );
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
