/**
 * `renderEntry`: custom renderers first, the defaults as fallback, and a last-resort line, so
 * rendering never throws whatever the entry or a plugin's renderer does.
 */
import type { CustomMessage, SessionEntry } from "@pi-sessions/core";
import { asString } from "@pi-sessions/core/internal";
import { renderDefaultEntry } from "./default-entries.js";
import { fmtOf } from "./format.js";
import { escapeInline } from "./markdown.js";
import { Renderers } from "./registry.js";
import { errorMessage, get, safeString, sanitize } from "./text.js";
import type { RenderContext, RenderFormat } from "./types.js";

/** Options shared by every render function. */
export interface RenderOptions {
  /** Output flavour (default "markdown"). */
  readonly format?: RenderFormat;
  /** Custom renderers (default: none, built-in defaults only). */
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

type Custom = { kind: "entry" | "message"; type: string; run: () => unknown };

/** The custom renderer that applies to an entry, ready to run, if any. */
function customFor(entry: unknown, renderers: Renderers, ctx: RenderContext): Custom | undefined {
  const type = get(entry, "type");
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
function withLabel(block: string, entry: unknown, ctx: RenderContext): string {
  const id = get(entry, "id");
  if (typeof id !== "string") return block;
  const label = ctx.getLabel(id);
  if (!label) return block;
  const fmt = fmtOf(ctx.format);
  return fmt.attach(block, fmt.note(`label: ${fmt.inline(safeString(label))}`));
}

/**
 * Renders one record as text or Markdown. Accepts anything (damaged files yield non-entries):
 * a custom renderer registered for the entry's customType runs first; when it returns
 * `undefined` the default is used, and when it throws or returns a non-string the default is
 * used with a note saying so. Never throws.
 */
export function renderEntryIn(entry: unknown, ctx: RenderContext, renderers: Renderers): string {
  try {
    let note: string | undefined;
    const custom = customFor(entry, renderers, ctx);
    if (custom) {
      try {
        const out = custom.run();
        if (typeof out === "string") return withLabel(out, entry, ctx);
        if (out !== undefined) throw new TypeError(`returned ${typeof out}, not a string`);
      } catch (error) {
        const fmt = fmtOf(ctx.format);
        const what = `${custom.kind} renderer for ${fmt.inline(`"${custom.type}"`)}`;
        note = fmt.note(
          `${what} failed (${fmt.inline(errorMessage(error))}); default rendering shown`,
        );
      }
    }
    const block = renderDefaultEntry(entry, ctx);
    const noted = note === undefined ? block : fmtOf(ctx.format).attach(block, note);
    return withLabel(noted, entry, ctx);
  } catch (error) {
    // Last resort: only total helpers from here on.
    return `[unrenderable entry: ${sanitize(errorMessage(error)).replace(/\n/g, " ")}]`;
  }
}

/** Renders one record with the given options (see {@link renderEntryIn}). Never throws. */
export function renderEntry(entry: unknown, options: RenderOptions = {}): string {
  return renderEntryIn(entry, createRenderContext(options), options.renderers ?? Renderers.empty());
}
