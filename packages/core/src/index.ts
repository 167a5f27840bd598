/**
 * @pi-sessions/core — the pi session format as an event-sourced fold, and a drop-in
 * `SessionManager`: the deliberate public surface. The reference's session-module names are
 * all here, so code written against it runs unchanged; the engine's parts (projections,
 * stores, the tree index, codecs, the read-only open) are here for embedders, plugin and
 * tool authors. Everything else is in `@pi-sessions/core/internal`.
 *
 * @packageDocumentation
 */

export type {
  SessionEventBus,
  SessionEventMap,
  SessionEventName,
  SessionSwitchedEvent,
  SessionSwitchReason,
} from "./bus/session-events.js";
export { createDeterministicEnv, type SessionEnv, systemEnv } from "./env/env.js";
export { assertValidSessionId } from "./env/ids.js";
export { InvalidSessionError } from "./format/load-text.js";
export { migrateSessionEntries } from "./format/migrate.js";
export { parseSessionEntries } from "./format/parse.js";
export { CURRENT_SESSION_VERSION } from "./format/record-rules.js";
export { EntryNotFoundError } from "./manager/entry-builders.js";
export type { EntryRejection, EntryValidator } from "./manager/entry-validation.js";
export { EntryRejectedError } from "./manager/entry-validation.js";
export type { SessionManagerOptions } from "./manager/session-manager-options.js";
export type { LineOrigin } from "./merge/chain-order.js";
export type { CollisionRule, RenamedEntry } from "./merge/id-collisions.js";
export {
  type MergedLine,
  type MergeOptions,
  type MergeReport,
  type MergeResult,
  mergeSessions,
  SessionMismatchError,
} from "./merge/merge-sessions.js";
export type { MergeInput } from "./merge/session-copy.js";
export type { ContextRole, LabelsRole, LeafView, SessionNameRole } from "./projections/builtins.js";
export { branchOf, labelOfId, nameOf, replayState, treeOf } from "./projections/builtins.js";
export {
  buildContextEntries,
  buildSessionContext,
  buildSessionProjection,
  getLatestCompactionEntry,
} from "./projections/context.js";
export {
  projectContextEntry,
  sessionEntryToContextMessages,
} from "./projections/context-messages.js";
export { defineDraftProjection } from "./projections/draft-projection.js";
export { labelsOfRecords, type ResolvedLabel } from "./projections/labels.js";
export type { ReadonlySessionManager } from "./readonly-session-manager.js";
export type { ContentBlock } from "./schema/codecs/content-blocks.js";
export { decodeEntry, decodeRecord, recordIssues } from "./schema/codecs/decode.js";
export { entryCodec } from "./schema/codecs/entries.js";
export { formatSchemaIssue, type SchemaIssue } from "./schema/codecs/issues.js";
export {
  ENTRY_REFERENCES,
  PARENT_REFERENCE,
  referenceFieldsOf,
  renameReferences,
} from "./schema/entry-references.js";
export {
  type AnyEntryTypeDefinition,
  type DefinedEntryFields,
  type EntryOfDefinition,
  type EntryTypeRegistry,
  entryTypeRegistry,
} from "./schema/entry-type-registry.js";
export {
  defineEntryType,
  ENTRY_TYPE_NAMES,
  ENTRY_TYPES,
  type EntryTypeDefinition,
  type EntryTypeRole,
  type EntryTypeTable,
  entryTypesWithRole,
  isBuiltInEntryType,
  isDefinedEntryType,
  ownEntryTypeProblem,
  type ReferenceFieldOf,
} from "./schema/entry-types.js";
export {
  isSearchedRole,
  MESSAGE_ROLES,
  type MessageRole,
  type MessageRoleDefinition,
  SEARCHED_ROLES,
} from "./schema/message-roles.js";
export { type SystemPrompt, systemPrompt } from "./schema/system-prompt.js";
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
  SystemMessage,
  TextContent,
  ThinkingContent,
  ThinkingLevelChangeEntry,
  ToolCall,
  ToolResultMessage,
  Usage,
  UsageEntry,
  UserMessage,
} from "./schema/types.js";
export { SessionManager } from "./session-manager.js";
export type { LoadDiagnostic, LoadDiagnosticKind } from "./state/diagnostics.js";
export type { EntryColumns, EntrySource } from "./state/entry-log.js";
export { EntryUnreadableError } from "./state/entry-log.js";
export type {
  FoldContext,
  LogView,
  Projection,
  VersionedFold,
  VersionedProjection,
} from "./state/projection.js";
export { defineProjection, replayProjection } from "./state/projection.js";
export { entryOf, foldEntries, projectionState, type SessionState } from "./state/session-state.js";
export type { TreeIndex, TreeSource } from "./state/tree.js";
export { recordsTreeSource, treeIndex, walkPath } from "./state/tree.js";
export { findMostRecentSession } from "./store/discovery.js";
export { type FileStoreOptions, fileStore } from "./store/file-store.js";
export type { SessionListProgress } from "./store/listing.js";
export { loadEntriesFromFile } from "./store/load-entries.js";
export { SessionLockedError } from "./store/lock.js";
export { memoryStore } from "./store/memory-store.js";
export { getDefaultSessionDir } from "./store/paths.js";
export { type QueuedWrite, queuedSink } from "./store/queued-sink.js";
export { type ReadSessionOptions, readSession, type SessionOnDisk } from "./store/read-session.js";
export { type FileKind, NotRegularFileError } from "./store/regular-file.js";
export type {
  OpenedSession,
  SessionSink,
  SessionStore,
  StoredSession,
  StoredSessionContent,
} from "./store/session-store.js";
export { SessionStoreFailedError } from "./store/session-store.js";
export type { Durability } from "./store/session-writer.js";
export type { ColumnsFor, VouchedLayout } from "./store/vouched-columns.js";
export { SessionConflictError, SessionFileDeletedError } from "./store/writer-errors.js";
