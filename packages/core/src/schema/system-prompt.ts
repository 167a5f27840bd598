/**
 * What a system message says, read from any value: pi 1.6 keeps the prompt of a system message
 * in `sections` (name → text, `null` removes one) and its tools in `toolsAdded`/`toolsRemoved`,
 * usually with an empty `content`. Everything that shows a system message (Markdown, text,
 * HTML, the `tree` line) reads it through here, so none of them shows an empty prompt again.
 * Files are data from disk: every field is checked, nothing throws.
 */

import { asRecord } from "./record-fields.js";

/** The readable parts of a system message. */
export interface SystemPrompt {
  /**
   * The prompt as the model reads it: the text of `content`, then each non-null section in
   * order, non-empty parts joined by a blank line (what pi's `getSystemMessageText` gives).
   */
  readonly text: string;
  /** Names of the tools the message adds, in order (`?` for a tool without a name). */
  readonly toolsAdded: readonly string[];
  /** Names of the tools the message removes, in order. */
  readonly toolsRemoved: readonly string[];
  /** Names of the sections the message removes (`null` values), in order. */
  readonly sectionsRemoved: readonly string[];
}

/** A content field's text: a string as is, text blocks joined by a newline. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content) {
    const b = asRecord(block);
    if (b?.type === "text" && typeof b.text === "string") texts.push(b.text);
  }
  return texts.join("\n");
}

function toolNames(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((tool) => {
    const name = asRecord(tool)?.name;
    return typeof name === "string" ? name : "?";
  });
}

/**
 * The prompt text and tool changes of a system message (any value; a non-object gives empty
 * parts). Only string and `null` section values count: a section of any other type is not
 * part of the prompt pi would send.
 */
export function systemPrompt(message: unknown): SystemPrompt {
  const m = asRecord(message) ?? {};
  const parts = [contentText(m.content)];
  const sectionsRemoved: string[] = [];
  for (const [name, value] of Object.entries(asRecord(m.sections) ?? {})) {
    if (typeof value === "string") parts.push(value);
    else if (value === null) sectionsRemoved.push(name);
  }
  return {
    text: parts.filter((part) => part.length > 0).join("\n\n"),
    toolsAdded: toolNames(m.toolsAdded),
    toolsRemoved: toolNames(m.toolsRemoved),
    sectionsRemoved,
  };
}
