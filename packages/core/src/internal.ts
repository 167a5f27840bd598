/**
 * @pi-sessions/core/internal — the building blocks under the public API that this
 * repository's CLI, index, plugins, redaction, PostgreSQL store and testkit use (the document
 * parser, migration, the entry log, the writer and lock, listing internals), listed name by
 * name: a name is here because a sibling package imports it. Stable within a release, not
 * promised across releases the way `@pi-sessions/core` is. Core's own tests reach the other
 * modules directly (`test/core-parts.ts`).
 *
 * @packageDocumentation
 */

export type { HandlerErrorEvent } from "./bus/session-events.js";
export { asError } from "./env/as-error.js";
export type { SessionEnv } from "./env/env.js";
export { systemEnv, uuidv7From } from "./env/env.js";
export { assertValidSessionId, generateEntryId } from "./env/ids.js";
export { resolveCwd } from "./env/paths.js";
export { ColumnLoader } from "./format/column-load.js";
export { newLineHead, scanObjectLine } from "./format/json-scan.js";
export type { LoadedText } from "./format/load-text.js";
export { loadText } from "./format/load-text.js";
export { migrateDocument, migrateRecords } from "./format/migrate.js";
export type { JsonRecord, LineIssue } from "./format/parse.js";
export { documentIssues, isJsonRecord, JsonlScanner, parseJsonl } from "./format/parse.js";
export { isValidHeader, resolveHeader } from "./format/record-rules.js";
export {
  createHeader,
  serializeDocument,
  serializeRecord,
  serializeRecords,
} from "./format/serialize.js";
export { splitByteLines } from "./merge/session-copy.js";
export { BUILTIN_PROJECTIONS, initialState, leafSummary } from "./projections/builtins.js";
export type { ContextCache, PathSummary } from "./projections/context-cache.js";
export { contextOfSummary, contextProjection, summarizePath } from "./projections/context-cache.js";
export type { LabelIndex } from "./projections/labels.js";
export { labelOf, labelsProjection, resolveLabels } from "./projections/labels.js";
export type { SessionNameState } from "./projections/session-name.js";
export { sessionNameOf, sessionNameProjection } from "./projections/session-name.js";
export {
  ContentBlockCodec,
  ImageContentCodec,
  TextContentCodec,
  ThinkingContentCodec,
  ToolCallCodec,
  UserContentCodec,
} from "./schema/codecs/content-blocks.js";
export { decodeHeader, decodeMessage } from "./schema/codecs/decode.js";
export { ENTRY_CODECS } from "./schema/codecs/entries.js";
export { SessionHeaderCodec } from "./schema/codecs/header.js";
export { decodeWith } from "./schema/codecs/issues.js";
export {
  AssistantMessageCodec,
  BashExecutionMessageCodec,
  BranchSummaryMessageCodec,
  CompactionSummaryMessageCodec,
  CustomMessageCodec,
  SystemMessageCodec,
  ToolResultMessageCodec,
  UserMessageCodec,
} from "./schema/codecs/messages.js";
export { UsageCodec } from "./schema/codecs/usage.js";
export {
  asFiniteNumber,
  asRecord,
  asString,
  type LooseEntry,
} from "./schema/record-fields.js";
export { entriesOfColumns } from "./state/column-entries.js";
export { structuralDiagnostics } from "./state/diagnostics.js";
export type { EntryLog } from "./state/entry-log.js";
export { idAt, logFromEntries, positionOf } from "./state/entry-log.js";
export type { PersistentVector } from "./state/persistent-vector.js";
export { replaySlots } from "./state/projection.js";
export { childrenOfId, entriesOf, foldEntry, withLeaf } from "./state/session-state.js";
export { pathPositions } from "./state/tree.js";
export { writeFileAtomic } from "./store/atomic-write.js";
export { cwdMatches, readHeader } from "./store/discovery.js";
export { sessionInfoCodec, sessionShapeCodec } from "./store/fold-codecs.js";
export { jsonlPaths } from "./store/jsonl-paths.js";
export type { ListingOptions, ListSessionsOptions } from "./store/listing.js";
export { listAllSessions, listSessions, listSessionsInDir } from "./store/listing.js";
export type { ListingAnswer, ListingSummary } from "./store/listing-answer.js";
export {
  decodeListingAnswer,
  encodeListingAnswer,
  listingAnswerRules,
  summarizeListingAnswer,
} from "./store/listing-answer.js";
export type { FileStamp, ShapedSessionInfo } from "./store/listing-cache.js";
export { defaultSessionInfoCache, SessionInfoCache } from "./store/listing-cache.js";
export type { SavedFoldState } from "./store/listing-folds.js";
export { foldRulesKey, restoreFoldState, saveFoldState } from "./store/listing-folds.js";
export {
  compareDirCandidates,
  compareRootCandidates,
  newestFirst,
} from "./store/listing-order.js";
export type { Lock } from "./store/lock.js";
export { acquireLock } from "./store/lock.js";
export { memorySink } from "./store/memory-store.js";
export {
  defaultSessionDirPath,
  encodeCwd,
  encodeResolvedCwd,
  ensureDir,
  getAgentDir,
  getSessionsRoot,
  sessionFileName,
} from "./store/paths.js";
export { withFile } from "./store/read-chunks.js";
export { COLUMNS_FROM_BYTES_ENV, readSessionFile } from "./store/read-session.js";
export { fileTypeOf, openRegularFile, readRegularFile } from "./store/regular-file.js";
export type { SessionInfoFoldState } from "./store/session-info.js";
export {
  buildSessionInfo,
  messageText,
  readSessionInfoSync,
  SessionInfoFold,
} from "./store/session-info.js";
export type { PathProblem, SessionFileScan } from "./store/session-scan.js";
export { fsReason, scanSessionDir, scanSessionFiles } from "./store/session-scan.js";
export type { SessionShape, StoredIds } from "./store/session-shape.js";
export { SessionShapeFold } from "./store/session-shape.js";
export { nodeStoreFs, writeAll } from "./store/store-fs.js";
export {
  isConversationEntry,
  resolveSessionDir,
  samePath,
  sessionLines,
} from "./store/store-helpers.js";
