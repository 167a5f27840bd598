import { branchOf } from "../projections/builtins.js";
import type { AgentMessage, ContextEditEntry, SessionMessageEntry } from "../schema/types.js";
import { entryOf, type SessionState } from "../state/session-state.js";

/**
 * The fields every appended entry starts with. Each entry is an object literal in the
 * reference's key order (SPEC §3.2); optional fields are `undefined` where the reference
 * writes them conditionally, and JSON drops those.
 */
export interface EntryBase {
  readonly id: string;
  readonly parentId: string | null;
  readonly timestamp: string;
}

/** A `message` entry, fields written out: the hottest append builds one per message. */
export function messageEntry(b: EntryBase, message: AgentMessage): SessionMessageEntry {
  return { type: "message", id: b.id, parentId: b.parentId, timestamp: b.timestamp, message };
}

/**
 * The stored replacement of a context edit of `targetId` (SPEC §5.4), after the reference's
 * checks in its order. A string for an assistant or tool result is wrapped, the wrapped form
 * replacing it whole (extra keys dropped), as pi does.
 */
export function contextEditReplacement(
  replacement: ContextEditEntry["replacement"],
  targetId: string,
  state: SessionState,
): ContextEditEntry["replacement"] {
  const content = (replacement as { content?: unknown } | null)?.content;
  const shaped = typeof content === "string" || Array.isArray(content);
  if (replacement !== null && (typeof replacement !== "object" || !shaped)) {
    throw new Error("Context edit replacement must be null or contain string/array content");
  }
  const target = entryOf(state, targetId);
  if (!target) throw new EntryNotFoundError(targetId);
  const onBranch = branchOf(state).some((e) => e.id === targetId);
  if (!onBranch) throw new Error(`Entry ${targetId} is not on the active branch`);
  const role = target.type === "message" ? target.message?.role : undefined;
  const wrapped = role === "assistant" || role === "toolResult";
  const editable = target.type === "custom_message" || role === "user" || wrapped;
  if (!editable) throw new Error(`Entry ${targetId} does not contribute editable model content`);
  return replacement && typeof content === "string" && wrapped
    ? { content: [{ type: "text", text: content }] }
    : replacement;
}

/** Thrown for an unknown entry id, with the reference's message (SPEC §5.5). */
export class EntryNotFoundError extends Error {
  constructor(readonly entryId: string) {
    super(`Entry ${entryId} not found`);
    this.name = "EntryNotFoundError";
  }
}
