/**
 * Codecs for the message roles of SPEC §3.3 (`AgentMessage`), dispatched on `role`.
 *
 * Message timestamps are Unix milliseconds (numbers), unlike entry timestamps. Unknown roles
 * (e.g. a newer role, or `hookMessage` in a v2 file before migration) are kept as they are.
 */

import * as t from "io-ts";
import {
  AnyArray,
  type IdCodec,
  type MemberOf,
  NullableString,
  objectCodec,
  open,
  TaggedDispatchType,
  type WithOpaque,
  widerAtRuntime,
} from "./combinators.js";
import {
  AssistantContentCodec,
  SystemContentCodec,
  ToolResultContentCodec,
  UserContentCodec,
} from "./content-blocks.js";
import { UsageCodec } from "./usage.js";

/** A message typed by the user: `{role: "user", content, timestamp}`. */
export const UserMessageCodec = objectCodec("UserMessage", {
  role: t.literal("user"),
  content: UserContentCodec,
  timestamp: t.number,
});

/** A message typed by the user. */
export type UserMessage = t.TypeOf<typeof UserMessageCodec>;

/** Provider stop reasons, named for completion; the session layer never validates them. */
export type StopReason =
  | "stop"
  | "length"
  | "toolUse"
  | "error"
  | "aborted"
  | "deferred"
  | "pending"
  | (string & {});

/**
 * A model response. `stopReason` is any string (SPEC §3.3: the session layer must not
 * validate it); `diagnostics` and `deferred` are provider data and only their outer shape is
 * checked.
 */
export const AssistantMessageCodec = objectCodec(
  "AssistantMessage",
  {
    role: t.literal("assistant"),
    content: AssistantContentCodec,
    api: t.string,
    provider: t.string,
    model: t.string,
    usage: UsageCodec,
    // Any string is accepted; the type only names the common values for completion.
    stopReason: widerAtRuntime<StopReason>(t.string),
    timestamp: t.number,
  },
  {
    responseModel: t.string,
    responseId: t.string,
    providerThinkingLevel: t.string,
    diagnostics: AnyArray,
    deferred: t.unknown,
    errorMessage: t.string,
    rawStopReason: t.string,
    endTurn: t.boolean,
    thinkingLevel: t.string,
    durationMs: t.number,
  },
);

/** A model response. */
export type AssistantMessage = t.TypeOf<typeof AssistantMessageCodec>;

/**
 * The result of one tool call. `details` is the tool's own data (opaque). The seed's
 * `addedToolNames` and R1.6's `nestedCalls` are kept but not checked: neither is read by the
 * session layer, and the shapes are not settled across versions.
 */
export const ToolResultMessageCodec = open(
  objectCodec(
    "ToolResultMessage",
    {
      role: t.literal("toolResult"),
      toolCallId: t.string,
      toolName: t.string,
      content: ToolResultContentCodec,
      isError: t.boolean,
      timestamp: t.number,
    },
    { details: t.unknown, usage: UsageCodec, durationMs: t.number },
  ),
);

/**
 * The result of one tool call; `usage` is nested LLM work done by the tool. Open: versions add
 * fields here (see the codec), so the type admits any extra field.
 */
export type ToolResultMessage = t.TypeOf<typeof ToolResultMessageCodec>;

/**
 * A `!`/`!!` shell command. `exitCode` is `number | undefined` in the type; the key may be
 * absent, and `null` (a process killed by a signal reports no code) is tolerated on read.
 */
export const BashExecutionMessageCodec = objectCodec(
  "BashExecutionMessage",
  {
    role: t.literal("bashExecution"),
    command: t.string,
    output: t.string,
    cancelled: t.boolean,
    truncated: t.boolean,
    timestamp: t.number,
  },
  { fullOutputPath: t.string, excludeFromContext: t.boolean },
  { exitCode: widerAtRuntime<number | undefined>(t.union([t.number, t.null], "number | null")) },
);

/** A `!`/`!!` shell command run by the user. */
export type BashExecutionMessage = t.TypeOf<typeof BashExecutionMessageCodec>;

/** An extension message that reaches the model. `details` is the extension's own data. */
export const CustomMessageCodec = objectCodec(
  "CustomMessage",
  {
    role: t.literal("custom"),
    customType: t.string,
    content: UserContentCodec,
    display: t.boolean,
    timestamp: t.number,
  },
  { details: t.unknown },
);

/** Extension-produced message that reaches the model; `T` names its `details`. */
export type CustomMessage<T = unknown> = WithOpaque<
  t.TypeOf<typeof CustomMessageCodec>,
  "details",
  T
>;

/** A branch summary as context building produces it (SPEC §8.4). */
export const BranchSummaryMessageCodec = objectCodec("BranchSummaryMessage", {
  role: t.literal("branchSummary"),
  summary: t.string,
  fromId: NullableString,
  timestamp: t.number,
});

/** Summary of an abandoned branch, produced when context is built. */
export type BranchSummaryMessage = t.TypeOf<typeof BranchSummaryMessageCodec>;

/** A compaction summary as context building produces it (SPEC §8.4). */
export const CompactionSummaryMessageCodec = objectCodec("CompactionSummaryMessage", {
  role: t.literal("compactionSummary"),
  summary: t.string,
  tokensBefore: t.number,
  timestamp: t.number,
});

/** Summary of compacted history, produced when context is built. */
export type CompactionSummaryMessage = t.TypeOf<typeof CompactionSummaryMessageCodec>;

/** A tool definition in a system message: a `name`, the rest is provider data. */
export const ToolDefinitionCodec = open(objectCodec("ToolDefinition", { name: t.string }));

/** A tool definition carried by a system message (open: the rest is provider data). */
export type ToolDefinition = t.TypeOf<typeof ToolDefinitionCodec>;

/** [R1.6] A system prompt and tool-set checkpoint. */
export const SystemMessageCodec = objectCodec(
  "SystemMessage",
  { role: t.literal("system"), content: SystemContentCodec, timestamp: t.number },
  {
    sections: t.record(t.string, NullableString, "Record<string, string | null>"),
    toolsAdded: t.array(ToolDefinitionCodec, "ToolDefinition[]"),
    toolsRemoved: t.array(objectCodec("ToolRef", { name: t.string }), "{ name: string }[]"),
  },
);

/** [R1.6] System prompt and tool set checkpoint. */
export type SystemMessage = t.TypeOf<typeof SystemMessageCodec>;

/** Message codecs keyed by wire `role`. */
export const MESSAGE_CODECS = Object.freeze({
  user: UserMessageCodec,
  assistant: AssistantMessageCodec,
  toolResult: ToolResultMessageCodec,
  bashExecution: BashExecutionMessageCodec,
  custom: CustomMessageCodec,
  branchSummary: BranchSummaryMessageCodec,
  compactionSummary: CompactionSummaryMessageCodec,
  system: SystemMessageCodec,
} as const);

/** Any message role the format defines. */
export type KnownAgentMessage = MemberOf<typeof MESSAGE_CODECS>;

/**
 * A message as stored in a `message` entry. Unknown roles are passed through unchanged
 * (SPEC §2.6) but are not part of the type: switch on `role` with a default branch.
 */
export type AgentMessage = KnownAgentMessage;

/** The wire names of the built-in message roles. */
export const KNOWN_MESSAGE_ROLES: readonly AgentMessage["role"][] = Object.freeze(
  Object.keys(MESSAGE_CODECS) as AgentMessage["role"][],
);

/**
 * Any message, dispatched on `role`. A message with an unknown string `role` is kept as it is
 * (SPEC §2.6: passed through to context) and is not part of the static type: switch on `role`
 * with a default branch.
 */
export const AgentMessageCodec: IdCodec<AgentMessage> = new TaggedDispatchType<AgentMessage>(
  "AgentMessage",
  "role",
  MESSAGE_CODECS,
  "keep",
);
