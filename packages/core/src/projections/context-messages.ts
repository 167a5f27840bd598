import type {
  AgentMessage,
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
  CustomMessageEntry,
  SessionEntry,
  SessionMessageEntry,
} from "../schema/types.js";

/** `new Date(s).getTime()`: an invalid timestamp gives NaN, as in the reference (SPEC §8.4). */
function ms(timestamp: unknown): number {
  return new Date(timestamp as string).getTime();
}

/** Roles whose missing message content reads as `[]` in context. */
const ARRAY_CONTENT_ROLES = new Set(["user", "assistant", "toolResult"]);

/** What one entry contributes to context (SPEC §8.4); state-only and unknown ones, nothing. */
export function sessionEntryToContextMessages(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case "message": {
      // Missing content is filled as the reference does: [] for these roles, "" for system.
      const m = (entry as SessionMessageEntry).message as AgentMessage & { content?: unknown };
      if (m === null || typeof m !== "object" || (m.content !== null && m.content !== undefined))
        return [m];
      if (ARRAY_CONTENT_ROLES.has(m.role)) return [{ ...m, content: [] } as AgentMessage];
      return [m.role === "system" ? ({ ...m, content: "" } as AgentMessage) : m];
    }
    case "custom_message": {
      const { customType, content, display, details, timestamp } = entry as CustomMessageEntry;
      const t = ms(timestamp);
      return [
        { role: "custom", customType, content: content ?? [], display, details, timestamp: t },
      ];
    }
    case "branch_summary": {
      const { summary, fromId, timestamp } = entry as BranchSummaryEntry;
      return summary ? [{ role: "branchSummary", summary, fromId, timestamp: ms(timestamp) }] : [];
    }
    case "compaction": {
      const { summary, tokensBefore, timestamp, systemMessage } = entry as CompactionEntry;
      const at = ms(timestamp);
      const m: AgentMessage = { role: "compactionSummary", summary, tokensBefore, timestamp: at };
      return systemMessage ? [systemMessage, m] : [m];
    }
    case "thinking_level_change":
    case "model_change":
    case "custom":
    case "label":
    case "session_info":
    case "usage":
    case "context_edit":
      return [];
    default:
      return unknownTypeMessages(entry);
  }
}

/**
 * An entry of an unknown type (SPEC §2.6) contributes nothing. Its parameter is `never`, so a
 * new built-in type does not compile until the switch above says what it contributes.
 */
function unknownTypeMessages(_entry: never): AgentMessage[] {
  return [];
}

/** Roles whose content a context edit replaces. */
const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);
/** Roles whose content must be a block array; a string replacement becomes one text block. */
const BLOCK_ROLES = new Set(["assistant", "toolResult"]);

/** One context entry's messages after its latest context edit, if any (SPEC §8.5). */
export function projectContextEntry(
  entry: SessionEntry,
  edit: ContextEditEntry | undefined,
): AgentMessage[] {
  const messages = sessionEntryToContextMessages(entry);
  if (!edit) return messages;
  if (edit.replacement === null || edit.replacement === undefined) return [];
  const content = edit.replacement.content;
  return messages.map((m) => {
    if (!EDITABLE_ROLES.has(m.role)) return m;
    const wrap = typeof content === "string" && BLOCK_ROLES.has(m.role);
    return { ...m, content: wrap ? [{ type: "text", text: content }] : content } as AgentMessage;
  });
}
