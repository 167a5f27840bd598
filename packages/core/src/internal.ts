/**
 * @pi-sessions/core/internal — the building blocks under the public API, for this
 * repository's CLI, testkit and tests, and for tools that need the format's parts one by one
 * (the document parser, migration, the entry log, the writer and lock, listing internals).
 * Stable within a release, not promised across releases the way `@pi-sessions/core` is.
 *
 * @packageDocumentation
 */

export type {
  DiagnosticsEvent,
  EntryAppendedEvent,
  HandlerErrorEvent,
  HandlerErrorReporter,
  LeafMovedEvent,
  SessionSwitchedEvent,
  SessionSwitchReason,
} from "./bus/session-events.js";
export type { DeterministicEnvOptions } from "./env/env.js";
export { uuidv7From } from "./env/env.js";
export { generateEntryId, INVALID_SESSION_ID_MESSAGE, MAX_SESSION_ID_LENGTH } from "./env/ids.js";
export { resolveCwd } from "./env/paths.js";
export type { SplitRecords } from "./format/load-records.js";
export { splitRecords } from "./format/load-records.js";
export type { LoadedText } from "./format/load-text.js";
export { loadText } from "./format/load-text.js";
export type {
  DocumentMigrationResult,
  MigrationDiagnostic,
  MigrationDiagnosticKind,
  MigrationResult,
} from "./format/migrate.js";
export { migrateDocument, migrateRecords } from "./format/migrate.js";
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
} from "./format/parse.js";
export type { HeaderLocation, NotASession } from "./format/record-rules.js";
export {
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
export {
  BUILTIN_PROJECTIONS,
  contextOf,
  initialState,
  leafSummary,
} from "./projections/builtins.js";
export type { ContextSettings } from "./projections/context.js";
export { contextEntriesOfPath, projectionOfPath, settingsOfPath } from "./projections/context.js";
export type { ContextCache, PathSummary } from "./projections/context-cache.js";
export { contextProjection, summarizePath } from "./projections/context-cache.js";
export type { DraftProjectionSpec } from "./projections/draft-projection.js";
export type { LabelIndex } from "./projections/labels.js";
export { labelOf, labelsProjection, resolve as resolveLabels } from "./projections/labels.js";
export type { SessionNameState } from "./projections/session-name.js";
export {
  sanitizeSessionName,
  sessionNameOf,
  sessionNameProjection,
} from "./projections/session-name.js";
export type { IdCodec } from "./schema/codecs/combinators.js";
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
export { decodeHeader, decodeMessage, FileEntryCodec } from "./schema/codecs/decode.js";
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
export { decodeWith } from "./schema/codecs/issues.js";
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
export type { KnownAgentMessage, StopReason, ToolDefinition } from "./schema/types.js";
export { structuralDiagnostics } from "./state/diagnostics.js";
export type { EntryLog } from "./state/entry-log.js";
export { childrenOf, getLogEntry, logEntries } from "./state/entry-log.js";
export type { ProjectionSlot } from "./state/projection.js";
export { childrenOfId, entriesOf, foldEntry, withLeaf } from "./state/session-state.js";
export { buildTree } from "./state/tree.js";
export type { Vec } from "./state/vec.js";
export type { AtomicContent, AtomicWriteOptions } from "./store/atomic-write.js";
export { writeFileAtomic } from "./store/atomic-write.js";
export type { DeleteResult } from "./store/delete.js";
export { deleteSessionFile } from "./store/delete.js";
export { cwdMatches, findSessionById, readHeader } from "./store/discovery.js";
export type {
  ListingOptions,
  ListSessionsOptions,
  ShapedSessionInfo,
  WithShape,
} from "./store/listing.js";
export { listAllSessions, listSessions, listSessionsInDir } from "./store/listing.js";
export { SessionInfoCache } from "./store/listing-cache.js";
export type { Lock, LockOptions } from "./store/lock.js";
export { acquireLock } from "./store/lock.js";
export { memorySink } from "./store/memory-store.js";
export {
  defaultSessionDirPath,
  encodeCwd,
  getAgentDir,
  getSessionsRoot,
  sessionFileName,
} from "./store/paths.js";
export type { QueuedSinkOptions } from "./store/queued-sink.js";
export type { SessionFileRead } from "./store/read-session.js";
export { readSessionFile } from "./store/read-session.js";
export { buildSessionInfo } from "./store/session-info.js";
export type { SessionShape, ShapeIrregularity } from "./store/session-shape.js";
export type { SessionWriterOptions } from "./store/session-writer.js";
export { SessionFileWriter } from "./store/session-writer.js";
