/**
 * A plugin's headless renderers as pi renderers: each is registered with
 * `pi.registerEntryRenderer` / `pi.registerMessageRenderer` and wraps the plugin's text or
 * Markdown in a pi-tui component. A renderer that throws, returns undefined or returns a
 * non-string yields `undefined`, which is pi's signal to draw its default for the entry.
 */

import type { ExtensionAPI, ExtensionContext, Theme } from "@earendil-works/pi-coding-agent";
import { type Component, Markdown, type MarkdownTheme, Text } from "@earendil-works/pi-tui";
import type { CustomMessage, SessionEntry } from "@pi-sessions/core";
import type { AnyPlugin } from "../registry/registry.js";
import { createRenderContext } from "../render/render-entry.js";
import type { RenderContext, RenderFormat } from "../render/types.js";

/** The session a renderer reads titles and labels from (pi's read-only manager). */
export type PiSessionView = ExtensionContext["sessionManager"];

/** What {@link registerPiRenderers} needs besides pi and the plugin. */
export interface PiRendererOptions {
  /** Text becomes a pi-tui `Text`, Markdown a pi-tui `Markdown` styled with pi's theme. */
  readonly format: RenderFormat;
  /** The bound session, if any (for `ctx.getEntry` / `ctx.getLabel`). */
  readonly session: () => PiSessionView | undefined;
  /** Told about a renderer that threw (pi then draws its default). */
  readonly failed: (where: string, error: unknown) => void;
}

/** pi's Markdown theme built from the theme pi hands a renderer (the colours of `/settings`). */
export function markdownThemeOf(theme: Theme): MarkdownTheme {
  return {
    heading: (t) => theme.fg("mdHeading", t),
    link: (t) => theme.fg("mdLink", t),
    linkUrl: (t) => theme.fg("mdLinkUrl", t),
    code: (t) => theme.fg("mdCode", t),
    codeBlock: (t) => theme.fg("mdCodeBlock", t),
    codeBlockBorder: (t) => theme.fg("mdCodeBlockBorder", t),
    quote: (t) => theme.fg("mdQuote", t),
    quoteBorder: (t) => theme.fg("mdQuoteBorder", t),
    hr: (t) => theme.fg("mdHr", t),
    listBullet: (t) => theme.fg("mdListBullet", t),
    bold: (t) => theme.bold(t),
    italic: (t) => theme.italic(t),
    underline: (t) => theme.underline(t),
    strikethrough: (t) => theme.strikethrough(t),
  };
}

/**
 * The component for a renderer's output: a `Text` (plain) or a `Markdown` (themed), one
 * column of padding like pi's own custom-entry boxes. Exported so tests and hand-written pi
 * renderers draw exactly what the registered ones draw.
 */
export function componentOf(output: string, format: RenderFormat, theme: Theme): Component {
  return format === "markdown"
    ? new Markdown(output, 1, 0, markdownThemeOf(theme))
    : new Text(output, 1, 0);
}

/** Runs a headless renderer; a string becomes a component, anything else pi's default. */
function toComponent(
  run: (ctx: RenderContext) => string | undefined,
  where: string,
  theme: Theme,
  options: PiRendererOptions,
): Component | undefined {
  try {
    const session = options.session();
    const ctx = createRenderContext({
      format: options.format,
      getEntry: (id) => session?.getEntry(id) as SessionEntry | undefined,
      getLabel: (id) => session?.getLabel(id),
    });
    const output = run(ctx);
    if (output === undefined) return undefined;
    if (typeof output !== "string") throw new TypeError(`returned ${typeof output}, not a string`);
    return componentOf(output, options.format, theme);
  } catch (error) {
    options.failed(where, error);
    return undefined;
  }
}

/** Registers every entry and message renderer of `plugin` (typed `render`s included) with pi. */
export function registerPiRenderers(
  pi: ExtensionAPI,
  plugin: AnyPlugin,
  options: PiRendererOptions,
): void {
  for (const [customType, render] of Object.entries(plugin.entryRenderers)) {
    const where = `entry renderer "${customType}"`;
    pi.registerEntryRenderer(customType, (entry, _opts, theme) =>
      toComponent((ctx) => render(entry as unknown as SessionEntry, ctx), where, theme, options),
    );
  }
  for (const [customType, render] of Object.entries(plugin.messageRenderers)) {
    const where = `message renderer "${customType}"`;
    pi.registerMessageRenderer(customType, (message, _opts, theme) =>
      toComponent((ctx) => render(message as unknown as CustomMessage, ctx), where, theme, options),
    );
  }
}
