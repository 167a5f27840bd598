/**
 * Static types of the pi session format (SPEC §2–§3), named as the reference names them.
 *
 * These are the shapes the engine reads and writes. The io-ts codecs in `./codecs` check
 * values against them at the boundary; `codecs/type-checks.ts` proves at compile time that
 * each codec's output type is assignable to the type declared here, so the two cannot drift.
 * Unknown fields are allowed everywhere (the format is open: SPEC §2.6).
 */

/** Plain text content block. */
export interface TextContent {
  type: "text";
  text: string;
  /** Opaque provider signature. */
  textSignature?: string;
}

/** Base64 image content block. */
export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

/** Model reasoning content block. */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
}

/** A tool invocation requested by the assistant. */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
  namespace?: string;
  argumentsError?: string;
}

/** Token and cost accounting of one model call (SPEC §3.5). */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Part of `cacheWrite` written with 1-hour retention. */
  cacheWrite1h?: number;
  /** Reasoning tokens, already counted inside `output`. */
  reasoning?: number;
  totalTokens: number;
  cost: {
    input: number;
    output: number;
    cacheRead: number;
    cacheWrite: number;
    total: number;
    totalFromProvider?: boolean;
  };
}

/** A message typed by the user. */
export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

/** Provider stop reasons; the session layer never validates them. */
export type StopReason =
  | "stop"
  | "length"
  | "toolUse"
  | "error"
  | "aborted"
  | "deferred"
  | "pending"
  | (string & {});

/** A model response. */
export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  api: string;
  provider: string;
  model: string;
  responseModel?: string;
  responseId?: string;
  providerThinkingLevel?: string;
  diagnostics?: unknown[];
  usage: Usage;
  stopReason: StopReason;
  deferred?: unknown;
  errorMessage?: string;
  rawStopReason?: string;
  endTurn?: boolean;
  thinkingLevel?: string;
  durationMs?: number;
  timestamp: number;
}

/** The result of one tool call. */
export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  /** Nested LLM work done by the tool. */
  usage?: Usage;
  isError: boolean;
  timestamp: number;
  [extra: string]: unknown;
}

/** A `!`/`!!` shell command run by the user. */
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  excludeFromContext?: boolean;
  timestamp: number;
}

/** Extension-produced message that reaches the model. */
export interface CustomMessage<T = unknown> {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: T;
  timestamp: number;
}

/** Summary of an abandoned branch, produced when context is built. */
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string | null;
  timestamp: number;
}

/** Summary of compacted history, produced when context is built. */
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

/** A tool definition carried by a system message. */
export interface ToolDefinition {
  name: string;
  [extra: string]: unknown;
}

/** [R1.6] System prompt and tool set checkpoint. */
export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  sections?: Record<string, string | null>;
  toolsAdded?: ToolDefinition[];
  toolsRemoved?: { name: string }[];
  timestamp: number;
}

/** Any message role the format defines. */
export type KnownAgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage
  | SystemMessage;

/**
 * A message as stored in a `message` entry. Unknown roles are passed through unchanged
 * (SPEC §2.6), so the type is open.
 */
export type AgentMessage = KnownAgentMessage;

/** The first record of every session file. */
export interface SessionHeader {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
}

/** Options for a new session. */
export interface NewSessionOptions {
  id?: string;
  parentSession?: string;
}

/** Fields every entry carries. */
export interface SessionEntryBase {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

/** A conversation message. */
export interface SessionMessageEntry extends SessionEntryBase {
  type: "message";
  message: AgentMessage;
}

/** The thinking level changed. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

/** The model changed. */
export interface ModelChangeEntry extends SessionEntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

/** [R1.6] Usage attributed to a model outside the conversation. */
export interface UsageEntry extends SessionEntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** History before `firstKeptEntryId` was summarised. */
export interface CompactionEntry<T = unknown> extends SessionEntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: T;
  usage?: Usage;
  fromHook?: boolean;
  systemMessage?: SystemMessage;
}

/** Summary of the branch that was left when the leaf moved. */
export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: T;
  usage?: Usage;
  fromHook?: boolean;
}

/** Extension state that never reaches the model. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
  type: "custom";
  customType: string;
  data?: T;
}

/** A bookmark on an entry; a falsy label clears it. */
export interface LabelEntry extends SessionEntryBase {
  type: "label";
  targetId: string;
  label: string | undefined;
}

/** Session metadata (display name). */
export interface SessionInfoEntry extends SessionEntryBase {
  type: "session_info";
  name?: string;
}

/** Extension content that reaches the model. */
export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  details?: T;
  display: boolean;
}

/** Content a context edit may put in place of an entry's content. */
export type ContextEditableContent =
  | UserMessage["content"]
  | AssistantMessage["content"]
  | ToolResultMessage["content"]
  | CustomMessage["content"];

/** [R1.6] Append-only change to one earlier entry's contribution to context. */
export interface ContextEditEntry extends SessionEntryBase {
  type: "context_edit";
  targetId: string;
  replacement: { content: ContextEditableContent } | null;
}

/** Every entry type the format defines. */
export type SessionEntry =
  | SessionMessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | UsageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | ContextEditEntry
  | LabelEntry
  | SessionInfoEntry;

/** Any record of a file: the header or an entry. */
export type FileEntry = SessionHeader | SessionEntry;

/** The wire names of the built-in entry types. */
export type SessionEntryType = SessionEntry["type"];

/** A node of {@link SessionManager.getTree}. */
export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

/** The model a context was built for. */
export interface ModelRef {
  provider: string;
  modelId: string;
}

/** What one context entry contributes after context edits. */
export interface ProjectedSessionEntry {
  sourceEntry: SessionEntry;
  messages: AgentMessage[];
}

/** Provenance-preserving, compaction-aware context (SPEC §8.5). */
export interface SessionProjection {
  entries: ProjectedSessionEntry[];
  messages: AgentMessage[];
  thinkingLevel: string;
  model: ModelRef | null;
}

/** What is sent to the model. */
export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  model: ModelRef | null;
}

/** Summary of one session file, as `list()` returns it. */
export interface SessionInfo {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  created: Date;
  modified: Date;
  messageCount: number;
  firstMessage: string;
  allMessagesText: string;
}
