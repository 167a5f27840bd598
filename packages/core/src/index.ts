/**
 * @pi-sessions/core — the pi session format as an event-sourced fold, and a drop-in
 * `SessionManager`. Every name is exported explicitly; the reference's session-module names
 * are all here so code written against it runs unchanged.
 *
 * @packageDocumentation
 */

export type {
  DiagnosticsEvent,
  EntryAppendedEvent,
  HandlerErrorEvent,
  HandlerErrorReporter,
  LeafMovedEvent,
  SessionEventBus,
  SessionEventMap,
  SessionEventName,
  SessionSwitchedEvent,
  SessionSwitchReason,
} from "./bus/session-events.js";
export type { DeterministicEnvOptions, SessionEnv } from "./env/env.js";
export { createDeterministicEnv, systemEnv, uuidv7From } from "./env/env.js";
export {
  assertValidSessionId,
  generateEntryId,
  INVALID_SESSION_ID_MESSAGE,
  MAX_SESSION_ID_LENGTH,
} from "./env/ids.js";
export { resolveCwd } from "./env/paths.js";
export type { SplitRecords } from "./format/load-records.js";
export { splitRecords } from "./format/load-records.js";
export type { LoadedText } from "./format/load-text.js";
export { InvalidSessionError, loadText } from "./format/load-text.js";
export type {
  DocumentMigrationResult,
  MigrationDiagnostic,
  MigrationDiagnosticKind,
  MigrationResult,
} from "./format/migrate.js";
export { migrateDocument, migrateRecords, migrateSessionEntries } from "./format/migrate.js";
export type {
  DocLine,
  JsonRecord,
  LineIssue,
  LineIssueKind,
  ParsedDocument,
} from "./format/parse.js";
export {
  documentIssues,
  documentRecords,
  formatIssue,
  isJsonRecord,
  parseJsonl,
  parseSessionEntries,
} from "./format/parse.js";
export type { HeaderLocation, NotASession } from "./format/record-rules.js";
export {
  CURRENT_SESSION_VERSION,
  describeNotASession,
  findHeaderIndex,
  headerVersion,
  isValidHeader,
  resolveHeader,
} from "./format/record-rules.js";
export type { CreateHeaderOptions } from "./format/serialize.js";
export {
  createHeader,
  serializeDocument,
  serializeDocumentLines,
  serializeRecord,
  serializeRecords,
} from "./format/serialize.js";
export { EntryNotFoundError } from "./manager/entry-builders.js";
export type { EntryRejection, EntryValidator } from "./manager/entry-validation.js";
export { EntryRejectedError } from "./manager/entry-validation.js";
export type { ContextRole, LabelsRole, LeafView, SessionNameRole } from "./projections/builtins.js";
export {
  BUILTIN_PROJECTIONS,
  branchOf,
  contextOf,
  initialState,
  labelOfId,
  leafSummary,
  nameOf,
  replayState,
  treeOf,
} from "./projections/builtins.js";
export type { ContextSettings } from "./projections/context.js";
export {
  buildContextEntries,
  buildSessionContext,
  buildSessionProjection,
  contextEntriesOfPath,
  getLatestCompactionEntry,
  projectionOfPath,
  settingsOfPath,
} from "./projections/context.js";
export type { ContextCache, PathSummary } from "./projections/context-cache.js";
export { contextProjection, summarizePath } from "./projections/context-cache.js";
export {
  projectContextEntry,
  sessionEntryToContextMessages,
} from "./projections/context-messages.js";
export type { DraftProjectionSpec } from "./projections/draft-projection.js";
export { defineDraftProjection } from "./projections/draft-projection.js";
export type { LabelIndex, ResolvedLabel } from "./projections/labels.js";
export {
  labelOf,
  labelsOfRecords,
  labelsProjection,
  resolve as resolveLabels,
} from "./projections/labels.js";
export type { SessionNameState } from "./projections/session-name.js";
export {
  sanitizeSessionName,
  sessionNameOf,
  sessionNameProjection,
} from "./projections/session-name.js";
export type { IdCodec } from "./schema/codecs/combinators.js";
export type { ContentBlock } from "./schema/codecs/content-blocks.js";
export {
  AssistantContentCodec,
  CONTENT_BLOCK_CODECS,
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
} from "./schema/codecs/content-blocks.js";
export {
  decodeEntry,
  decodeHeader,
  decodeMessage,
  decodeRecord,
  entryShapeProblem,
  FileEntryCodec,
  recordIssues,
} from "./schema/codecs/decode.js";
export type { EntryCodecMap, EntryOf, UnknownEntry } from "./schema/codecs/entries.js";
export {
  BranchSummaryEntryCodec,
  CompactionEntryCodec,
  ContextEditEntryCodec,
  CustomEntryCodec,
  CustomMessageEntryCodec,
  createEntryCodec,
  ENTRY_CODECS,
  isKnownEntry,
  isKnownEntryType,
  KNOWN_ENTRY_TYPES,
  LabelEntryCodec,
  ModelChangeEntryCodec,
  SessionEntryCodec,
  SessionInfoEntryCodec,
  SessionMessageEntryCodec,
  ThinkingLevelChangeEntryCodec,
  UnknownEntryCodec,
  UsageEntryCodec,
} from "./schema/codecs/entries.js";
export { SessionHeaderCodec } from "./schema/codecs/header.js";
export type { SchemaIssue } from "./schema/codecs/issues.js";
export { decodeWith, formatSchemaIssue } from "./schema/codecs/issues.js";
export {
  AgentMessageCodec,
  AssistantMessageCodec,
  BashExecutionMessageCodec,
  BranchSummaryMessageCodec,
  CompactionSummaryMessageCodec,
  CustomMessageCodec,
  KNOWN_MESSAGE_ROLES,
  MESSAGE_CODECS,
  SystemMessageCodec,
  ToolDefinitionCodec,
  ToolResultMessageCodec,
  UserMessageCodec,
} from "./schema/codecs/messages.js";
export { UsageCodec, UsageCostCodec } from "./schema/codecs/usage.js";
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
export type { ReadonlySessionManager, SessionManagerOptions } from "./session-manager.js";
export { SessionManager } from "./session-manager.js";
export type { LoadDiagnostic, LoadDiagnosticKind } from "./state/diagnostics.js";
export { formatDiagnostic, structuralDiagnostics } from "./state/diagnostics.js";
export type { EntryLog } from "./state/entry-log.js";
export { childrenOf, getLogEntry, logEntries } from "./state/entry-log.js";
export type { FoldContext, Projection, ProjectionSlot } from "./state/projection.js";
export { defineProjection, replayProjection } from "./state/projection.js";
export type { SessionState } from "./state/session-state.js";
export {
  childrenOfId,
  entriesOf,
  entryOf,
  foldEntries,
  foldEntry,
  projectionState,
  withLeaf,
} from "./state/session-state.js";
export type { TreeIndex, TreeSource } from "./state/tree.js";
export { buildTree, recordsTreeSource, treeIndex, walkPath } from "./state/tree.js";
export type { Vec } from "./state/vec.js";
export type { AtomicContent, AtomicWriteOptions } from "./store/atomic-write.js";
export { writeFileAtomic } from "./store/atomic-write.js";
export type { DeleteResult } from "./store/delete.js";
export { deleteSessionFile } from "./store/delete.js";
export {
  cwdMatches,
  findMostRecentSession,
  findSessionById,
  readHeader,
} from "./store/discovery.js";
export type { FileStoreOptions } from "./store/file-store.js";
export { fileStore } from "./store/file-store.js";
export type {
  ListingOptions,
  ListSessionsOptions,
  SessionListProgress,
  ShapedSessionInfo,
  WithShape,
} from "./store/listing.js";
export { listAllSessions, listSessions, listSessionsInDir } from "./store/listing.js";
export { SessionInfoCache } from "./store/listing-cache.js";
export { loadEntriesFromFile } from "./store/load-entries.js";
export type { Lock, LockOptions } from "./store/lock.js";
export { acquireLock, SessionLockedError } from "./store/lock.js";
export { memorySink, memoryStore } from "./store/memory-store.js";
export {
  defaultSessionDirPath,
  encodeCwd,
  getAgentDir,
  getDefaultSessionDir,
  getSessionsRoot,
  sessionFileName,
} from "./store/paths.js";
export type { QueuedSinkOptions, QueuedWrite } from "./store/queued-sink.js";
export { queuedSink } from "./store/queued-sink.js";
export type { SessionFileRead, SessionOnDisk } from "./store/read-session.js";
export { readSession, readSessionFile } from "./store/read-session.js";
export { buildSessionInfo } from "./store/session-info.js";
export type { SessionShape, ShapeIrregularity } from "./store/session-shape.js";
export type {
  OpenedSession,
  SessionSink,
  SessionStore,
  StoredSession,
  StoredSessionContent,
} from "./store/session-store.js";
export { SessionStoreFailedError } from "./store/session-store.js";
export type { Durability, SessionWriterOptions } from "./store/session-writer.js";
export {
  SessionConflictError,
  SessionFileDeletedError,
  SessionFileWriter,
} from "./store/session-writer.js";
