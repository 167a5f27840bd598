/**
 * How a plugin's own entry type reads, as data: a title of inline runs and a list of parts.
 * The formatter writes it in every output (text, Markdown, HTML) with the same primitives the
 * built-in types use (`format.ts`, `html.ts`), so a plugin describes its type once, never
 * writes markup, and cannot add any: every string is escaped for its format here.
 */
import type { Fmt } from "./format.js";
import { jsonBlock, literal } from "./parts.js";
import { referenceTo } from "./reference.js";
import { safeString } from "./text.js";
import type { RenderContext } from "./types.js";

/**
 * One inline run: plain text, or another entry's id (`ref`: code with a hint of what it
 * points at, a link in HTML when that entry is on the page), code, or emphasised text.
 */
export type InlineRun =
  | string
  | { readonly ref: string }
  | { readonly code: string }
  | { readonly strong: string };

/** Inline text: one run or several, written one after another. */
export type InlineText = InlineRun | readonly InlineRun[];

/**
 * One part under an entry's title: Markdown prose (as a message's text), literal text (as tool
 * output, cut to the context's limit), a de-emphasised note, or any value as JSON.
 */
export type DescribedPart =
  | { readonly prose: string }
  | { readonly literal: string }
  | { readonly note: InlineText }
  | { readonly json: unknown };

/** How one entry reads: its title, and the parts under it (none: a one-line entry). */
export interface EntryDescription {
  /** The block's title (or the whole line, without parts); the entry id is added after it. */
  readonly title: InlineText;
  /** What is shown under the title, in order (empty or absent: a one-line entry). */
  readonly parts?: readonly DescribedPart[];
}

/** The runs of inline text (one run is a list of one). */
function runsOf(text: InlineText): readonly InlineRun[] {
  return Array.isArray(text) ? text : [text as InlineRun];
}

/** Inline text in the flavour of `fmt`. */
export function writeInline(fmt: Fmt, ctx: RenderContext, text: InlineText): string {
  return runsOf(text)
    .map((run) => writeRun(fmt, ctx, run))
    .join("");
}

/**
 * Plain text between other runs: escaped without its outer whitespace (Markdown's inline
 * escaping drops it), which comes back as one space each side, so `["Bookmark on ", { ref }]`
 * keeps its space in every flavour.
 */
function writeText(fmt: Fmt, text: string): string {
  const inner = text.trim();
  if (inner === "") return text === "" ? "" : " ";
  const lead = /^\s/.test(text) ? " " : "";
  const trail = /\s$/.test(text) ? " " : "";
  return `${lead}${fmt.inline(inner)}${trail}`;
}

function writeRun(fmt: Fmt, ctx: RenderContext, run: InlineRun): string {
  if (typeof run === "string") return writeText(fmt, run);
  if (typeof run !== "object" || run === null) return fmt.inline(safeString(run));
  if ("ref" in run) return referenceTo(fmt, ctx, run.ref);
  if ("code" in run) return fmt.code(safeString(run.code));
  if ("strong" in run) return fmt.strong(safeString(run.strong));
  return fmt.inline(safeString(run));
}

function writePart(fmt: Fmt, ctx: RenderContext, part: DescribedPart): string {
  if (typeof part !== "object" || part === null) return jsonBlock(fmt, ctx, part);
  if ("prose" in part) return fmt.prose(safeString(part.prose));
  if ("literal" in part) return literal(fmt, ctx, safeString(part.literal));
  if ("note" in part) return fmt.note(writeInline(fmt, ctx, part.note));
  if ("json" in part) return jsonBlock(fmt, ctx, part.json);
  return jsonBlock(fmt, ctx, part);
}

/** A description as one entry's block (or line, without parts) in the flavour of `fmt`. */
export function writeDescription(
  fmt: Fmt,
  ctx: RenderContext,
  description: EntryDescription,
  id: string | undefined,
): string {
  const title = writeInline(fmt, ctx, description.title);
  const parts = description.parts ?? [];
  if (parts.length === 0) return fmt.line(title, id);
  return fmt.block(
    title,
    id,
    parts.map((part) => writePart(fmt, ctx, part)),
  );
}

/** The title of a description as one plain line (what a summary defaults to). */
export function plainTitle(description: EntryDescription): string {
  const plain = (run: InlineRun): unknown =>
    typeof run === "object" && run !== null
      ? Object.values(run)[0] // a run object holds one field: the id, code or text
      : run;
  const text = runsOf(description.title)
    .map((run) => safeString(plain(run)))
    .join("");
  return text.replace(/\s+/g, " ").trim();
}
