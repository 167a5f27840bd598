/**
 * One entry as HTML for the exported page: the wrapper (anchor, id, time, label and leaf
 * badges, the type and role classes the page's styles use) is the page's; what the entry
 * says is the plugins' formatter in its HTML flavour (`renderEntryHtml`), the same
 * description per type as the Markdown export, so a built-in type is described once and a
 * plugin's custom type shows here through its renderer. Every value is escaped; a damaged or
 * foreign entry renders as what it is, with its raw JSON, instead of throwing.
 */
import type { SessionEntry } from "@pi-sessions/core";
import { type HtmlRenderOptions, type Renderers, renderEntryHtml } from "@pi-sessions/plugins";
import { terminalSafeText } from "../io/terminal-text.js";
import { entryAnchor, escapeHtml as esc } from "./html-escape.js";

/** What an entry's rendering may look up besides the entry. */
export interface EntryHtmlContext {
  /** The current label of an entry id, if any. */
  readonly getLabel: (id: string) => string | undefined;
  /** Whether an entry with this id is on the page (so a link to it resolves). */
  readonly isOnPage: (id: string) => boolean;
  /** The session's entry with this id, if any (for what a reference points at). */
  readonly getEntry: (id: string) => SessionEntry | undefined;
  /** Plugin renderers of custom types (none: the defaults only). */
  readonly renderers?: Renderers | undefined;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The formatter's options for a page's entries (made once per page: it reuses them). */
const RENDER_OPTIONS = new WeakMap<EntryHtmlContext, HtmlRenderOptions>();

function renderOptionsOf(ctx: EntryHtmlContext): HtmlRenderOptions {
  let options = RENDER_OPTIONS.get(ctx);
  if (options === undefined) {
    options = {
      renderers: ctx.renderers,
      getEntry: ctx.getEntry,
      // The wrapper shows the id and the label; the page shows everything, uncut.
      showIds: false,
      maxTextLength: Number.POSITIVE_INFINITY,
      entryHref: (id) => (ctx.isOnPage(id) ? `#${entryAnchor(id)}` : undefined),
    };
    RENDER_OPTIONS.set(ctx, options);
  }
  return options;
}

/** The inner HTML of one entry (without its wrapper). */
function bodyHtml(entry: SessionEntry, ctx: EntryHtmlContext): string {
  const html = renderEntryHtml(entry, renderOptionsOf(ctx));
  // The page holds to the CLI's wider rule for invisible characters (bidi marks, separators).
  return terminalSafeText(html);
}

/** CSS class of an entry's wrapper: its type, and its role for messages. */
function entryClass(entry: SessionEntry): string {
  const message = (entry as { message?: unknown }).message;
  const role =
    entry.type === "message" && typeof message === "object" && message !== null
      ? str((message as { role?: unknown }).role)
      : undefined;
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");
  return `entry t-${safe(String(entry.type))}${role ? ` r-${safe(role)}` : ""}`;
}

/**
 * One entry as an `<article>` with its anchor, id, time and current label; `leafBadge` marks
 * the leaf the page was exported at ("current leaf" or "selected leaf").
 */
export function entryHtml(
  entry: SessionEntry,
  ctx: EntryHtmlContext,
  leafBadge: string | undefined,
): string {
  const isLeaf = leafBadge !== undefined;
  const id = str(entry.id) ?? "";
  const label = ctx.getLabel(id);
  const time = str(entry.timestamp) ?? "";
  return `<article class="${entryClass(entry)}${isLeaf ? " leaf" : ""}" id="${entryAnchor(id)}" data-id="${esc(id)}"><div class="ids"><code>${esc(id)}</code> <time>${esc(time)}</time>${label ? ` <span class="label-badge">label: ${esc(label)}</span>` : ""}${isLeaf ? ` <span class="leaf-badge">${esc(leafBadge)}</span>` : ""}</div>${bodyHtml(entry, ctx)}</article>`;
}
