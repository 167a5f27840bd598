/**
 * Types of the headless renderers (issue 4 part 3): pi's `registerEntryRenderer` /
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
  /** Escapes user text for the current format (identity for "text"). */
  readonly escape: (text: string) => string;
  /** Longest text excerpt a default renderer prints before truncating (characters). */
  readonly maxTextLength: number;
}

/**
 * Renders one entry of a registered `customType` (a `custom` or `custom_message` entry).
 * Returning `undefined` falls back to the default renderer; a throw falls back too, with a note.
 */
export type EntryRenderer = (entry: SessionEntry, ctx: RenderContext) => string | undefined;

/**
 * Renders a custom message (role `"custom"`, from a `custom_message` entry or a `message`
 * entry whose role is `custom`) of a registered `customType`. Same fallback rules as
 * {@link EntryRenderer}.
 */
export type MessageRenderer = (message: CustomMessage, ctx: RenderContext) => string | undefined;
