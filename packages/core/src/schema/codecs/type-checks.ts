/**
 * Compile-time agreement between the codecs and the hand-written types in `../types.ts`.
 *
 * Nothing here runs. Each `Fits<Out<codec>, Declared>` line fails to compile when a codec's decoded type
 * stops being usable as the declared type. Where the two are meant to be the same, a second
 * line `Fits<Declared, Out<codec>>` checks the other direction, which catches a field added to
 * one side only. Where they cannot be the same, the line says why.
 *
 * The codecs are deliberately wider than their static types in three documented ways: unknown
 * fields, unknown tags kept by the open unions (entry `type`, message `role`, block `type`), and
 * the `missingOk`/`widerAtRuntime` fields (see `combinators.ts`). None of them is visible here.
 */

import type * as t from "io-ts";
import type {
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  BranchSummaryEntry,
  BranchSummaryMessage,
  CompactionEntry,
  CompactionSummaryMessage,
  ContextEditableContent,
  ContextEditEntry,
  CustomEntry,
  CustomMessage,
  CustomMessageEntry,
  FileEntry,
  ImageContent,
  LabelEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionEntryType,
  SessionHeader,
  SessionInfoEntry,
  SessionMessageEntry,
  SystemMessage,
  TextContent,
  ThinkingContent,
  ThinkingLevelChangeEntry,
  ToolCall,
  ToolDefinition,
  ToolResultMessage,
  Usage,
  UsageEntry,
  UserMessage,
} from "../types.js";
import type {
  AssistantContentCodec,
  ContentBlock,
  ContentBlockCodec,
  ContextEditableContentCodec,
  ImageContentCodec,
  KNOWN_CONTENT_BLOCK_TYPES,
  SystemContentCodec,
  TextContentCodec,
  ThinkingContentCodec,
  ToolCallCodec,
  ToolResultContentCodec,
  UserContentCodec,
} from "./content-blocks.js";
import type { FileEntryCodec } from "./decode.js";
import type {
  BranchSummaryEntryCodec,
  CompactionEntryCodec,
  ContextEditEntryCodec,
  CustomEntryCodec,
  CustomMessageEntryCodec,
  ENTRY_CODECS,
  LabelEntryCodec,
  ModelChangeEntryCodec,
  SessionEntryCodec,
  SessionInfoEntryCodec,
  SessionMessageEntryCodec,
  ThinkingLevelChangeEntryCodec,
  UnknownEntry,
  UsageEntryCodec,
} from "./entries.js";
import type { SessionHeaderCodec } from "./header.js";
import type {
  AgentMessageCodec,
  AssistantMessageCodec,
  BashExecutionMessageCodec,
  BranchSummaryMessageCodec,
  CompactionSummaryMessageCodec,
  CustomMessageCodec,
  MESSAGE_CODECS,
  SystemMessageCodec,
  ToolDefinitionCodec,
  ToolResultMessageCodec,
  UserMessageCodec,
} from "./messages.js";
import type { UsageCodec } from "./usage.js";

/**
 * Compiles only when `A` is assignable to `B`; a failure names the property that differs.
 * `Same` agreement is written as two lines, one per direction.
 */
type Fits<A extends B, B> = [A, B];
/** The decoded type of a codec. */
type Out<C extends t.Mixed> = t.TypeOf<C>;
/** A registry's decoded types, keyed by tag. */
type Outs<M> = { [K in keyof M]: M[K] extends t.Mixed ? t.TypeOf<M[K]> : never };
/** The declared member of union `U` for each tag of registry `M`. */
type Declared<M, U, Tag extends string> = { [K in keyof M]: Extract<U, Record<Tag, K>> };

/** Every assertion, exported so no checker reports it unused; it has no use at run time. */
export type CodecTypeChecks = [
  // --- content blocks (SPEC §3.4) --------------------------------------------------------
  Fits<Out<typeof TextContentCodec>, TextContent>,
  Fits<TextContent, Out<typeof TextContentCodec>>,
  Fits<Out<typeof ImageContentCodec>, ImageContent>,
  Fits<ImageContent, Out<typeof ImageContentCodec>>,
  Fits<Out<typeof ThinkingContentCodec>, ThinkingContent>,
  Fits<ThinkingContent, Out<typeof ThinkingContentCodec>>,
  Fits<Out<typeof ToolCallCodec>, ToolCall>,
  Fits<ToolCall, Out<typeof ToolCallCodec>>,
  Fits<Out<typeof ContentBlockCodec>, ContentBlock>,
  Fits<ContentBlock, Out<typeof ContentBlockCodec>>,
  Fits<(typeof KNOWN_CONTENT_BLOCK_TYPES)[number], ContentBlock["type"]>,
  Fits<Out<typeof UserContentCodec>, UserMessage["content"]>,
  Fits<UserMessage["content"], Out<typeof UserContentCodec>>,
  Fits<Out<typeof AssistantContentCodec>, AssistantMessage["content"]>,
  Fits<AssistantMessage["content"], Out<typeof AssistantContentCodec>>,
  Fits<Out<typeof ToolResultContentCodec>, ToolResultMessage["content"]>,
  Fits<ToolResultMessage["content"], Out<typeof ToolResultContentCodec>>,
  Fits<Out<typeof SystemContentCodec>, SystemMessage["content"]>,
  Fits<SystemMessage["content"], Out<typeof SystemContentCodec>>,
  Fits<Out<typeof ContextEditableContentCodec>, ContextEditableContent>,
  Fits<ContextEditableContent, Out<typeof ContextEditableContentCodec>>,
  // --- usage (SPEC §3.5) -------------------------------------------------------------------
  Fits<Out<typeof UsageCodec>, Usage>,
  Fits<Usage, Out<typeof UsageCodec>>,
  // --- messages (SPEC §3.3) ----------------------------------------------------------------
  Fits<Out<typeof UserMessageCodec>, UserMessage>,
  Fits<UserMessage, Out<typeof UserMessageCodec>>,
  Fits<Out<typeof AssistantMessageCodec>, AssistantMessage>,
  Fits<AssistantMessage, Out<typeof AssistantMessageCodec>>,
  // ToolResultMessage has an index signature for extra fields; the codec's type has none, so
  // only the decoded → declared direction holds.
  Fits<Out<typeof ToolResultMessageCodec>, ToolResultMessage>,
  Fits<Out<typeof BashExecutionMessageCodec>, BashExecutionMessage>,
  Fits<BashExecutionMessage, Out<typeof BashExecutionMessageCodec>>,
  Fits<Out<typeof CustomMessageCodec>, CustomMessage>,
  Fits<CustomMessage, Out<typeof CustomMessageCodec>>,
  Fits<Out<typeof BranchSummaryMessageCodec>, BranchSummaryMessage>,
  Fits<BranchSummaryMessage, Out<typeof BranchSummaryMessageCodec>>,
  Fits<Out<typeof CompactionSummaryMessageCodec>, CompactionSummaryMessage>,
  Fits<CompactionSummaryMessage, Out<typeof CompactionSummaryMessageCodec>>,
  // Same as ToolResultMessage: ToolDefinition is open by an index signature.
  Fits<Out<typeof ToolDefinitionCodec>, ToolDefinition>,
  Fits<Out<typeof SystemMessageCodec>, SystemMessage>,
  Fits<SystemMessage, Out<typeof SystemMessageCodec>>,
  Fits<Out<typeof AgentMessageCodec>, AgentMessage>,
  Fits<AgentMessage, Out<typeof AgentMessageCodec>>,
  Fits<Outs<typeof MESSAGE_CODECS>, Declared<typeof MESSAGE_CODECS, AgentMessage, "role">>,
  Fits<AgentMessage["role"], keyof typeof MESSAGE_CODECS>,
  // --- header and entries (SPEC §2.2, §3.1–§3.2) ------------------------------------------
  Fits<Out<typeof SessionHeaderCodec>, SessionHeader>,
  Fits<SessionHeader, Out<typeof SessionHeaderCodec>>,
  Fits<Out<typeof SessionMessageEntryCodec>, SessionMessageEntry>,
  Fits<SessionMessageEntry, Out<typeof SessionMessageEntryCodec>>,
  Fits<Out<typeof ThinkingLevelChangeEntryCodec>, ThinkingLevelChangeEntry>,
  Fits<ThinkingLevelChangeEntry, Out<typeof ThinkingLevelChangeEntryCodec>>,
  Fits<Out<typeof ModelChangeEntryCodec>, ModelChangeEntry>,
  Fits<ModelChangeEntry, Out<typeof ModelChangeEntryCodec>>,
  Fits<Out<typeof UsageEntryCodec>, UsageEntry>,
  Fits<UsageEntry, Out<typeof UsageEntryCodec>>,
  Fits<Out<typeof CompactionEntryCodec>, CompactionEntry>,
  Fits<CompactionEntry, Out<typeof CompactionEntryCodec>>,
  Fits<Out<typeof BranchSummaryEntryCodec>, BranchSummaryEntry>,
  Fits<BranchSummaryEntry, Out<typeof BranchSummaryEntryCodec>>,
  Fits<Out<typeof CustomEntryCodec>, CustomEntry>,
  Fits<CustomEntry, Out<typeof CustomEntryCodec>>,
  Fits<Out<typeof CustomMessageEntryCodec>, CustomMessageEntry>,
  Fits<CustomMessageEntry, Out<typeof CustomMessageEntryCodec>>,
  Fits<Out<typeof LabelEntryCodec>, LabelEntry>,
  Fits<LabelEntry, Out<typeof LabelEntryCodec>>,
  Fits<Out<typeof SessionInfoEntryCodec>, SessionInfoEntry>,
  Fits<SessionInfoEntry, Out<typeof SessionInfoEntryCodec>>,
  Fits<Out<typeof ContextEditEntryCodec>, ContextEditEntry>,
  Fits<ContextEditEntry, Out<typeof ContextEditEntryCodec>>,
  Fits<Outs<typeof ENTRY_CODECS>, Declared<typeof ENTRY_CODECS, SessionEntry, "type">>,
  Fits<SessionEntryType, keyof typeof ENTRY_CODECS>,
  Fits<keyof typeof ENTRY_CODECS, SessionEntryType>,
  // The open entry codecs add UnknownEntry, which the declared unions do not have.
  Fits<Out<typeof SessionEntryCodec>, SessionEntry | UnknownEntry>,
  Fits<SessionEntry | UnknownEntry, Out<typeof SessionEntryCodec>>,
  Fits<Out<typeof FileEntryCodec>, FileEntry | UnknownEntry>,
  Fits<FileEntry | UnknownEntry, Out<typeof FileEntryCodec>>,
];
