/**
 * Types of the headless renderers: pi's `registerEntryRenderer` /
 * `registerMessageRenderer`, but returning plain text or Markdown instead of TUI components.
 */
import type { CustomMessage, SessionEntry } from "@pi-sessions/core";

/** Output flavour of a renderer: plain text, or Markdown with user text escaped. */
export type RenderFormat = "text" | "markdown";

/**
 * What a renderer knows besides the entry it renders. Everything is read-only: renderers are
 * pure functions of (entry, context).
 */
export interface RenderContext {
  /** The output flavour the caller asked for. */
  readonly format: RenderFormat;
  /** Nesting depth in a tree rendering (0 for a branch transcript or a single entry). */
  readonly depth: number;
  /** Looks an entry up by id (e.g. a label's or compaction's target); undefined when absent. */
  readonly getEntry: (id: string) => SessionEntry | undefined;
  /** The label currently attached to an entry id, if any. */
  readonly getLabel: (id: string) => string | undefined;
  /**
   * Escapes text for one inline run of the current format: Markdown escaping and line breaks
   * folded for "markdown", control characters made visible for "text". Never throws.
   */
  readonly escape: (text: string) => string;
  /** Longest excerpt of tool output, bash output or JSON data a default renderer prints. */
  readonly maxTextLength: number;
  /** Whether default renderers show entry ids in their titles. */
  readonly showIds: boolean;
}

/**
 * Renders one entry of a registered `customType` (a `custom` entry). Returning `undefined`
 * falls back to the default renderer; a throw (or a non-string) falls back too, with a note.
 */
export type EntryRenderer = (entry: SessionEntry, ctx: RenderContext) => string | undefined;

/**
 * Renders a custom message (a `custom_message` entry, or a `message` entry whose role is
 * `custom`) of a registered `customType`. Same fallback rules as {@link EntryRenderer}.
 */
export type MessageRenderer = (message: CustomMessage, ctx: RenderContext) => string | undefined;
