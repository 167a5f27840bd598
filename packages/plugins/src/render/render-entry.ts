/**
 * `renderEntry`: custom renderers first, the defaults as fallback, and a last-resort line, so
 * rendering never throws whatever the entry or a plugin's renderer does.
 */
import type { CustomMessage, SessionEntry } from "@pi-sessions/core";
import { asString } from "@pi-sessions/core/internal";
import { renderDefaultEntryAs } from "./default-entries.js";
import { writeDescription } from "./entry-description.js";
import { type Fmt, fmtOf } from "./format.js";
import { escapeHtml, htmlFmt } from "./html.js";
import { escapeInline } from "./markdown.js";
import { Renderers } from "./registry.js";
import { errorMessage, get, safeString, sanitize } from "./text.js";
import type { RenderContext, RenderFormat } from "./types.js";
import { describeWireEntry } from "./wire-type.js";

/** Options shared by every render function. */
export interface RenderOptions {
  /** Output flavour (default "markdown"). */
  readonly format?: RenderFormat;
  /**
   * Custom renderers (default: built-in defaults only; for `renderBranch`/`renderTree` of a
   * manager, the renderers of the plugins `installPlugins` installed into it).
   */
  readonly renderers?: Renderers;
  /** Longest tool output / JSON excerpt (default 4,000 characters). Prose is never cut. */
  readonly maxTextLength?: number;
  /** Show entry ids in titles (default true). */
  readonly showIds?: boolean;
  /** Entry lookup for titles and hints (renderBranch/renderTree provide it). */
  readonly getEntry?: (id: string) => SessionEntry | undefined;
  /** Label lookup (renderBranch/renderTree provide it). */
  readonly getLabel?: (id: string) => string | undefined;
  /** Depth reported to renderers (renderTree sets it). */
  readonly depth?: number;
}

/** Default excerpt limit: a screenful of tool output, enough to follow a transcript. */
export const DEFAULT_MAX_TEXT_LENGTH = 4000;

/** The context renderers receive for these options. */
export function createRenderContext(options: RenderOptions = {}): RenderContext {
  const format = options.format ?? "markdown";
  return {
    format,
    depth: options.depth ?? 0,
    getEntry: options.getEntry ?? (() => undefined),
    getLabel: options.getLabel ?? (() => undefined),
    escape: format === "markdown" ? escapeInline : (text) => sanitize(text).replace(/\n/g, " "),
    maxTextLength: options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH,
    showIds: options.showIds ?? true,
  };
}

/** The custom message a `custom_message` entry stands for (as context building makes it). */
function messageOfCustomEntry(entry: unknown): CustomMessage {
  const time = Date.parse(safeString(get(entry, "timestamp")));
  return {
    role: "custom",
    customType: safeString(get(entry, "customType")),
    content: get(entry, "content") as CustomMessage["content"],
    display: get(entry, "display") as boolean,
    details: get(entry, "details"),
    timestamp: Number.isNaN(time) ? 0 : time,
  };
}

/**
 * A renderer that applies to an entry, ready to run. `run` writes `ctx.format`, except a wire
 * type's, which writes in the flavour it is given (a description is written in every one).
 */
type Custom = {
  kind: "entry" | "message" | "wire type";
  type: string;
  run: (fmt: Fmt, id: string | undefined) => unknown;
};

/** The custom renderer (or a plugin wire type's view) that applies to an entry, if any. */
function customFor(entry: unknown, renderers: Renderers, ctx: RenderContext): Custom | undefined {
  const type = get(entry, "type");
  const wire = typeof type === "string" ? renderers.wireType(type) : undefined;
  if (wire && typeof type === "string") {
    const run = (fmt: Fmt, id: string | undefined) =>
      writeDescription(fmt, ctx, describeWireEntry(wire, entry), id);
    return { kind: "wire type", type, run };
  }
  if (type === "custom") {
    const customType = asString(get(entry, "customType"));
    const fn = customType === undefined ? undefined : renderers.entryRenderer(customType);
    if (fn && customType !== undefined) {
      return { kind: "entry", type: customType, run: () => fn(entry as SessionEntry, ctx) };
    }
  }
  let message: unknown;
  if (type === "custom_message") message = messageOfCustomEntry(entry);
  else if (type === "message" && get(get(entry, "message"), "role") === "custom") {
    message = get(entry, "message");
  }
  const customType = asString(get(message, "customType"));
  const fn = customType === undefined ? undefined : renderers.messageRenderer(customType);
  if (!fn || customType === undefined) return undefined;
  return { kind: "message", type: customType, run: () => fn(message as CustomMessage, ctx) };
}

/** The block with the entry's label attached under it, when it has one. */
function withLabel(fmt: Fmt, block: string, entry: unknown, ctx: RenderContext): string {
  const id = get(entry, "id");
  if (typeof id !== "string") return block;
  const label = ctx.getLabel(id);
  if (!label) return block;
  return fmt.attach(block, fmt.note(`label: ${fmt.inline(safeString(label))}`));
}

/**
 * Renders one record as text or Markdown (or, with `fmt` the HTML flavour, as HTML). Accepts
 * anything (damaged files yield non-entries): a custom renderer registered for the entry's
 * customType runs first; when it returns `undefined` the default is used, and when it throws
 * or returns a non-string the default is used with a note saying so. A custom renderer writes
 * `ctx.format`; in another flavour its output is shown as literal prose (escaped in HTML), so
 * a renderer cannot add markup there. Never throws.
 */
export function renderEntryIn(
  entry: unknown,
  ctx: RenderContext,
  renderers: Renderers,
  fmt: Fmt = fmtOf(ctx.format),
): string {
  try {
    let note: string | undefined;
    const custom = customFor(entry, renderers, ctx);
    if (custom) {
      try {
        const rawId = get(entry, "id");
        const out = custom.run(fmt, ctx.showIds && typeof rawId === "string" ? rawId : undefined);
        if (typeof out === "string") {
          const native = fmt.kind === ctx.format || custom.kind === "wire type";
          const shown = native ? out : fmt.prose(out);
          return withLabel(fmt, shown, entry, ctx);
        }
        if (out !== undefined) throw new TypeError(`returned ${typeof out}, not a string`);
      } catch (error) {
        const named = fmt.inline(`"${custom.type}"`);
        const what =
          custom.kind === "wire type"
            ? `view of entry type ${named}`
            : `${custom.kind} renderer for ${named}`;
        note = fmt.note(
          `${what} failed (${fmt.inline(errorMessage(error))}); default rendering shown`,
        );
      }
    }
    const block = renderDefaultEntryAs(fmt, entry, ctx);
    const noted = note === undefined ? block : fmt.attach(block, note);
    return withLabel(fmt, noted, entry, ctx);
  } catch (error) {
    // Last resort: only total helpers from here on.
    const line = `[unrenderable entry: ${sanitize(errorMessage(error)).replace(/\n/g, " ")}]`;
    return fmt.kind === "html" ? escapeHtml(line) : line;
  }
}

/** Renders one record with the given options (see {@link renderEntryIn}). Never throws. */
export function renderEntry(entry: unknown, options: RenderOptions = {}): string {
  return renderEntryIn(entry, createRenderContext(options), options.renderers ?? Renderers.empty());
}

/** Options of {@link renderEntryHtml}: those of {@link renderEntry} but the format, plus links. */
export interface HtmlRenderOptions extends Omit<RenderOptions, "format"> {
  /**
   * The link (`href`) of an entry id shown on the same page, or undefined when it is not
   * there; references to other entries (a label's target, a compaction's kept entry) become
   * links through it. Default: no links.
   */
  readonly entryHref?: (id: string) => string | undefined;
}

/**
 * One record as an HTML fragment: the same description as {@link renderEntry}'s text and
 * Markdown (title, facts, content parts), written with HTML markup, every value from the
 * record escaped. A custom renderer runs with a `"text"` context and its output is shown as
 * escaped preformatted text, so a plugin's type appears in HTML without writing HTML and
 * cannot inject markup. The page around it (styles, anchors) is the caller's. Never throws.
 */
export function renderEntryHtml(entry: unknown, options: HtmlRenderOptions = {}): string {
  let setup = HTML_SETUPS.get(options);
  if (setup === undefined) {
    setup = {
      ctx: createRenderContext({ ...options, format: "text" }),
      fmt: htmlFmt(options.entryHref ?? (() => undefined)),
      renderers: options.renderers ?? Renderers.empty(),
    };
    HTML_SETUPS.set(options, setup);
  }
  return renderEntryIn(entry, setup.ctx, setup.renderers, setup.fmt);
}

/**
 * The context and primitives made from one options object (options are read-only), so a page
 * that passes the same options for each of its entries builds them once, not per entry.
 */
const HTML_SETUPS = new WeakMap<
  HtmlRenderOptions,
  { readonly ctx: RenderContext; readonly fmt: Fmt; readonly renderers: Renderers }
>();
