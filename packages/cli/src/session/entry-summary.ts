/**
 * One-line descriptions of entries and messages for `tree` and `context`. Files are data from
 * disk, so nothing here trusts the declared types: every field is checked before use, and an
 * entry of unknown shape still gets a line (its type), never an exception.
 */

import { type EntryTypeTable, isBuiltInEntryType, systemPrompt } from "@pi-sessions/core";
import { asRecord, asString, type LooseEntry } from "@pi-sessions/core/internal";

/**
 * The readable text of a message's content: a string as is, else the text blocks joined,
 * with thinking, tool calls and images shown as short markers so a line says what happened.
 */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    const b = asRecord(block);
    if (b === undefined) continue;
    switch (b.type) {
      case "text":
        if (typeof b.text === "string" && b.text.trim() !== "") parts.push(b.text);
        break;
      case "toolCall":
        parts.push(`[tool ${asString(b.name) ?? "?"}]`);
        break;
      case "image":
        parts.push("[image]");
        break;
      case "thinking":
        parts.push("[thinking]");
        break;
      default:
        parts.push(`[${String(b.type)}]`);
    }
  }
  return parts.join(" ");
}

/** `role: text` for a message (tool results name their tool; bash shows its command). */
export function messageSummary(message: unknown): string {
  const m = asRecord(message);
  if (m === undefined) return "message (no content)";
  const role = asString(m.role) ?? "?";
  switch (role) {
    case "toolResult":
      return `toolResult ${asString(m.toolName) ?? "?"}${m.isError === true ? " (error)" : ""}: ${contentText(m.content)}`;
    case "bashExecution":
      return `bash: $ ${asString(m.command) ?? ""}`;
    case "custom":
    case "hookMessage":
      return `custom ${asString(m.customType) ?? ""}: ${contentText(m.content)}`;
    case "branchSummary":
    case "compactionSummary":
      return `${role}: ${asString(m.summary) ?? ""}`;
    case "system": {
      // pi 1.6 keeps the prompt in `sections` with an empty `content`: read it all.
      const prompt = systemPrompt(m);
      const tools = prompt.toolsAdded.length > 0 ? ` (tools: ${prompt.toolsAdded.join(", ")})` : "";
      return `system: ${prompt.text}${tools}`;
    }
    default:
      return `${role}: ${contentText(m.content)}`;
  }
}

/** The one-line description of each built-in entry type (`satisfies`: a new type must get one). */
const ENTRY_SUMMARIES = {
  message: (e) => messageSummary(e.message),
  thinking_level_change: (e) => `thinking → ${asString(e.thinkingLevel) ?? "?"}`,
  model_change: (e) => `model → ${asString(e.provider) ?? "?"}/${asString(e.modelId) ?? "?"}`,
  compaction: (e) =>
    `compaction (${typeof e.tokensBefore === "number" ? `${e.tokensBefore} tokens before` : "?"}): ${asString(e.summary) ?? ""}`,
  branch_summary: (e) => `branch summary: ${asString(e.summary) ?? ""}`,
  custom: (e) => `custom ${asString(e.customType) ?? "?"}`,
  custom_message: (e) =>
    `custom message ${asString(e.customType) ?? "?"}: ${contentText(e.content)}`,
  label: (e) =>
    asString(e.label)
      ? `label ${asString(e.targetId) ?? "?"} "${asString(e.label)}"`
      : `label ${asString(e.targetId) ?? "?"} cleared`,
  session_info: (e) => (asString(e.name) ? `name "${asString(e.name)}"` : "name cleared"),
  usage: (e) =>
    `usage ${asString(e.kind) ?? ""} ${asString(e.provider) ?? "?"}/${asString(e.model) ?? "?"}`,
  context_edit: (e) =>
    `context edit of ${asString(e.targetId) ?? "?"}${e.replacement === null ? " (removed)" : ""}`,
} satisfies EntryTypeTable<(entry: LooseEntry) => string>;

/** A one-line description of any entry, by type; an unknown type reads as its name. */
export function entrySummary(entry: unknown): string {
  const e = asRecord(entry) ?? {};
  const type = asString(e.type) ?? "?";
  return isBuiltInEntryType(type) ? ENTRY_SUMMARIES[type](e) : type;
}
