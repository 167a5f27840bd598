import { jsonClone } from "../format/json-clone.js";
import type {
  AgentMessage,
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
  CustomEntry,
  CustomMessageEntry,
  ImageContent,
  LabelEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionInfoEntry,
  SessionMessageEntry,
  SystemMessage,
  TextContent,
  ThinkingLevelChangeEntry,
  Usage,
  UsageEntry,
} from "../schema/types.js";

/**
 * Entry constructors with the reference's key order (SPEC §3.2), which is what a serialised
 * line shows. Each takes the common fields and returns a fresh object; optional fields are
 * set to `undefined` where the reference writes them conditionally, and JSON drops those.
 */
export interface EntryBase {
  readonly id: string;
  readonly parentId: string | null;
  readonly timestamp: string;
}

/** A `message` entry. */
export function messageEntry(b: EntryBase, message: AgentMessage): SessionMessageEntry {
  return { type: "message", id: b.id, parentId: b.parentId, timestamp: b.timestamp, message };
}

/** A `thinking_level_change` entry. */
export function thinkingLevelEntry(b: EntryBase, thinkingLevel: string): ThinkingLevelChangeEntry {
  return { type: "thinking_level_change", ...base(b), thinkingLevel };
}

/** A `model_change` entry. */
export function modelChangeEntry(
  b: EntryBase,
  provider: string,
  modelId: string,
): ModelChangeEntry {
  return { type: "model_change", ...base(b), provider, modelId };
}

/** Arguments of a compaction entry after the common fields. */
export interface CompactionFields {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  usage?: Usage;
  fromHook?: boolean;
  systemMessage?: SystemMessage;
}

/** A `compaction` entry. */
export function compactionEntry(b: EntryBase, f: CompactionFields): CompactionEntry {
  return {
    type: "compaction",
    ...base(b),
    summary: f.summary,
    firstKeptEntryId: f.firstKeptEntryId,
    tokensBefore: f.tokensBefore,
    details: f.details,
    usage: f.usage,
    fromHook: f.fromHook,
    systemMessage: f.systemMessage,
  };
}

/** A `branch_summary` entry. */
export function branchSummaryEntry(
  b: EntryBase,
  fromId: string,
  summary: string,
  details?: unknown,
  usage?: Usage,
  fromHook?: boolean,
): BranchSummaryEntry {
  return { type: "branch_summary", ...base(b), fromId, summary, details, usage, fromHook };
}

/** A `custom` entry (its key order puts the payload first). */
export function customEntry(b: EntryBase, customType: string, data?: unknown): CustomEntry {
  return { type: "custom", customType, data, ...base(b) };
}

/** A `custom_message` entry (payload first, as the reference writes it). */
export function customMessageEntry(
  b: EntryBase,
  customType: string,
  content: string | (TextContent | ImageContent)[],
  display: boolean,
  details?: unknown,
): CustomMessageEntry {
  return { type: "custom_message", customType, content, display, details, ...base(b) };
}

/** A `label` entry; a cleared label keeps whatever falsy value it was given. */
export function labelEntry(b: EntryBase, targetId: string, label: string | undefined): LabelEntry {
  return { type: "label", ...base(b), targetId, label };
}

/** A `session_info` entry. */
export function sessionInfoEntry(b: EntryBase, name: string): SessionInfoEntry {
  return { type: "session_info", ...base(b), name };
}

/** A `usage` entry; `note` is written only when non-empty. */
export function usageEntry(
  b: EntryBase,
  kind: string,
  provider: string,
  model: string,
  usage: Usage,
  note?: string,
): UsageEntry {
  return { type: "usage", ...base(b), kind, provider, model, usage, note: note || undefined };
}

/** A `context_edit` entry. */
export function contextEditEntry(
  b: EntryBase,
  targetId: string,
  replacement: ContextEditEntry["replacement"],
): ContextEditEntry {
  return { type: "context_edit", ...base(b), targetId, replacement };
}

function base(b: EntryBase): EntryBase {
  return { id: b.id, parentId: b.parentId, timestamp: b.timestamp };
}

/**
 * The stored form of an entry: the JSON value of its serialised line. Memory then equals
 * disk (SPEC invariant 3) and the caller keeps no reference into our state (W20). The line
 * itself is `JSON.stringify(stored)` — the same text as the entry's, since `stored` is plain
 * JSON data in the same key order — and is only built when something is written.
 */
export function storedForm<T extends SessionEntry>(entry: T): T {
  return jsonClone(entry);
}

/**
 * The stored replacement of a context edit of `targetId` (SPEC §5.4), after the reference's
 * checks in its order: the replacement is null or has string/array content, the target
 * exists, is on the active branch and contributes editable model content. A string given for
 * an assistant or tool result is wrapped, and the wrapped form replaces the argument whole
 * (extra keys dropped), as the reference does.
 */
export function contextEditReplacement(
  replacement: ContextEditEntry["replacement"],
  targetId: string,
  getEntry: (id: string) => SessionEntry | undefined,
  activeBranch: () => readonly SessionEntry[],
): ContextEditEntry["replacement"] {
  const content = (replacement as { content?: unknown } | null)?.content;
  if (
    replacement !== null &&
    (typeof replacement !== "object" || (typeof content !== "string" && !Array.isArray(content)))
  ) {
    throw new Error("Context edit replacement must be null or contain string/array content");
  }
  const target = getEntry(targetId);
  if (!target) throw new EntryNotFoundError(targetId);
  if (!activeBranch().some((e) => e.id === targetId)) {
    throw new Error(`Entry ${targetId} is not on the active branch`);
  }
  const role = target.type === "message" ? target.message?.role : undefined;
  const editable =
    target.type === "custom_message" ||
    role === "user" ||
    role === "assistant" ||
    role === "toolResult";
  if (!editable) throw new Error(`Entry ${targetId} does not contribute editable model content`);
  if (
    replacement &&
    typeof content === "string" &&
    (role === "assistant" || role === "toolResult")
  ) {
    return { content: [{ type: "text", text: content }] };
  }
  return replacement;
}

/** Thrown for an unknown entry id, with the reference's message (SPEC §5.5). */
export class EntryNotFoundError extends Error {
  constructor(readonly entryId: string) {
    super(`Entry ${entryId} not found`);
    this.name = "EntryNotFoundError";
  }
}
