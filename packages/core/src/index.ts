/**
 * @pi-sessions/core — the pi session format as an event-sourced fold, and a drop-in
 * `SessionManager`. Every name is exported explicitly; the reference's session-module names
 * are all here so code written against it runs unchanged.
 *
 * @packageDocumentation
 */

// --- env -------------------------------------------------------------------------------
export type { DeterministicEnvOptions, SessionEnv } from "./env/env.js";
export { createDeterministicEnv, systemEnv, uuidv7From } from "./env/env.js";
export {
  assertValidSessionId,
  generateEntryId,
  INVALID_SESSION_ID_MESSAGE,
  MAX_SESSION_ID_LENGTH,
} from "./env/ids.js";

// --- schema types ------------------------------------------------------------------------
export type {
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
  KnownAgentMessage,
  LabelEntry,
  ModelChangeEntry,
  ModelRef,
  NewSessionOptions,
  ProjectedSessionEntry,
  SessionContext,
  SessionEntry,
  SessionEntryBase,
  SessionEntryType,
  SessionHeader,
  SessionInfo,
  SessionInfoEntry,
  SessionMessageEntry,
  SessionProjection,
  SessionTreeNode,
  StopReason,
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
} from "./schema/types.js";

// --- schema codecs (block owned by the codecs work) ----------------------------------------
// BEGIN codecs
// END codecs

// --- format: parse, serialize, migrate (block owned by the format work) ---------------------
// BEGIN format
// END format

// --- state, projections, context, manager ----------------------------------------------
// BEGIN engine
// END engine
