/**
 * Codecs for the message roles of SPEC §3.3, dispatched on `role`. Message timestamps are Unix
 * milliseconds, unlike entries'. Unknown roles (a newer one, v2's `hookMessage`) are kept.
 */

import * as t from "io-ts";
import {
  AnyArray,
  type IdCodec,
  type MemberOf,
  NullableString,
  objectCodec,
  open,
  taggedUnion,
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

/** A message codec named `name`: `role`, the role's own fields, then `timestamp`. */
function message<
  K extends string,
  R extends t.Props,
  O extends t.Props = Record<never, never>,
  M extends t.Props = Record<never, never>,
>(name: string, role: K, required: R, optional?: O, missingOk?: M) {
  const props = { role: t.literal(role), ...required, timestamp: t.number };
  return objectCodec(name, props, optional, missingOk);
}

/** Checks a {@link UserMessage}. */
export const UserMessageCodec = message("UserMessage", "user", { content: UserContentCodec });
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

/** Checks an {@link AssistantMessage}; provider data (`diagnostics`, `deferred`) by shape only. */
export const AssistantMessageCodec = message(
  "AssistantMessage",
  "assistant",
  {
    content: AssistantContentCodec,
    api: t.string,
    provider: t.string,
    model: t.string,
    usage: UsageCodec,
    stopReason: widerAtRuntime<StopReason>(t.string),
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
 * Checks a {@link ToolResultMessage}. The seed's `addedToolNames` and R1.6's `nestedCalls` are
 * kept unchecked: the session layer reads neither, and their shapes are not settled.
 */
export const ToolResultMessageCodec = open(
  message(
    "ToolResultMessage",
    "toolResult",
    {
      toolCallId: t.string,
      toolName: t.string,
      content: ToolResultContentCodec,
      isError: t.boolean,
    },
    { details: t.unknown, usage: UsageCodec, durationMs: t.number },
  ),
);
/** The result of one tool call; `usage` is nested LLM work done by the tool. Open to extra fields. */
export type ToolResultMessage = t.TypeOf<typeof ToolResultMessageCodec>;

/** Checks a {@link BashExecutionMessage}; a `null` `exitCode` (killed by a signal) is tolerated. */
export const BashExecutionMessageCodec = message(
  "BashExecutionMessage",
  "bashExecution",
  { command: t.string, output: t.string, cancelled: t.boolean, truncated: t.boolean },
  { fullOutputPath: t.string, excludeFromContext: t.boolean },
  { exitCode: widerAtRuntime<number | undefined>(t.union([t.number, t.null], "number | null")) },
);
/** A `!`/`!!` shell command run by the user. */
export type BashExecutionMessage = t.TypeOf<typeof BashExecutionMessageCodec>;

/** Checks a {@link CustomMessage}; `details` is the extension's own data. */
export const CustomMessageCodec = message(
  "CustomMessage",
  "custom",
  { customType: t.string, content: UserContentCodec, display: t.boolean },
  { details: t.unknown },
);
/** Extension-produced message that reaches the model; `T` names its `details`. */
export type CustomMessage<T = unknown> = WithOpaque<typeof CustomMessageCodec, T>;

/** Checks a {@link BranchSummaryMessage}. */
export const BranchSummaryMessageCodec = message("BranchSummaryMessage", "branchSummary", {
  summary: t.string,
  fromId: NullableString,
});
/** Summary of an abandoned branch, as context building produces it (SPEC §8.4). */
export type BranchSummaryMessage = t.TypeOf<typeof BranchSummaryMessageCodec>;

/** Checks a {@link CompactionSummaryMessage}. */
export const CompactionSummaryMessageCodec = message(
  "CompactionSummaryMessage",
  "compactionSummary",
  { summary: t.string, tokensBefore: t.number },
);
/** Summary of compacted history, as context building produces it (SPEC §8.4). */
export type CompactionSummaryMessage = t.TypeOf<typeof CompactionSummaryMessageCodec>;

/** Checks a {@link SystemMessage}. */
export const SystemMessageCodec = message(
  "SystemMessage",
  "system",
  { content: SystemContentCodec },
  {
    sections: t.record(t.string, NullableString, "Record<string, string | null>"),
    toolsAdded: t.array(
      open(objectCodec("ToolDefinition", { name: t.string })),
      "ToolDefinition[]",
    ),
    toolsRemoved: t.array(objectCodec("ToolRef", { name: t.string }), "{ name: string }[]"),
  },
);
/** [R1.6] System prompt and tool set checkpoint. */
export type SystemMessage = t.TypeOf<typeof SystemMessageCodec>;
/** A tool definition in a system message: a `name`, the rest is provider data. */
export type ToolDefinition = NonNullable<SystemMessage["toolsAdded"]>[number];

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

/** A message of a role the format defines; unknown roles pass (SPEC §2.6) but are not typed. */
export type AgentMessage = MemberOf<typeof MESSAGE_CODECS>;

/** Any message, dispatched on `role`; an unknown `role` is kept (switch with a default). */
export const AgentMessageCodec: IdCodec<AgentMessage> = taggedUnion(
  "AgentMessage",
  "role",
  MESSAGE_CODECS,
  "keep",
);
