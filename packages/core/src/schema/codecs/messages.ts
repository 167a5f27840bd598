/**
 * Codecs for the message roles of SPEC §3.3 (`AgentMessage`), dispatched on `role`.
 *
 * Message timestamps are Unix milliseconds (numbers), unlike entry timestamps. Unknown roles
 * (e.g. a newer role, or `hookMessage` in a v2 file before migration) are kept as they are.
 */

import * as t from "io-ts";
import type { AgentMessage } from "../types.js";
import {
  AnyArray,
  type IdCodec,
  NullableString,
  objectCodec,
  TaggedDispatchType,
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
    stopReason: t.string,
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

/**
 * The result of one tool call. `details` is the tool's own data (opaque). The seed's
 * `addedToolNames` and R1.6's `nestedCalls` are kept but not checked: neither is read by the
 * session layer, and the shapes are not settled across versions.
 */
export const ToolResultMessageCodec = objectCodec(
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
);

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

/** A branch summary as context building produces it (SPEC §8.4). */
export const BranchSummaryMessageCodec = objectCodec("BranchSummaryMessage", {
  role: t.literal("branchSummary"),
  summary: t.string,
  fromId: NullableString,
  timestamp: t.number,
});

/** A compaction summary as context building produces it (SPEC §8.4). */
export const CompactionSummaryMessageCodec = objectCodec("CompactionSummaryMessage", {
  role: t.literal("compactionSummary"),
  summary: t.string,
  tokensBefore: t.number,
  timestamp: t.number,
});

/** A tool definition in a system message: a `name`, the rest is provider data. */
export const ToolDefinitionCodec = objectCodec("ToolDefinition", { name: t.string });

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
