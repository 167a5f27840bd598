/**
 * @pi-sessions/testkit — fast-check arbitraries, invariant checkers, model-based commands and
 * a conformance suite for pi session files. Every name is exported explicitly.
 *
 * @packageDocumentation
 */

// --- arbitraries: values ---------------------------------------------------------------
export type { IdStyle } from "./arbitraries/common.js";
export {
  amountArb,
  entryIdFor,
  isoFromMs,
  jsonObjectArb,
  jsonValueArb,
  MAX_MS,
  MIN_MS,
  msArb,
  textArb,
  wordArb,
} from "./arbitraries/common.js";
export type { ContentOptions } from "./arbitraries/content.js";
export {
  assistantContentArb,
  contentBlockArb,
  imageContentArb,
  textContentArb,
  textOrImageBlocksArb,
  thinkingContentArb,
  toolCallArb,
  toolCallIdArb,
  unknownBlockArb,
  userContentArb,
} from "./arbitraries/content.js";
export type { StructuralSpec } from "./arbitraries/damage-structure.js";
export type {
  DamagedSession,
  DamageKind,
  ExpectedDiagnostic,
  InjectedDamage,
} from "./arbitraries/damage-types.js";
export { compareDiagnostics, DAMAGE_KINDS } from "./arbitraries/damage-types.js";
export type { DamageOptions, DamageSpec } from "./arbitraries/damaged.js";
export { applyDamage, damagedSessionArb } from "./arbitraries/damaged.js";
export type { EntryOptions } from "./arbitraries/entries.js";
export { entryOfTypeArb, sessionEntryArb } from "./arbitraries/entries.js";
export type { EntryPlace } from "./arbitraries/entry-build.js";
export { buildEntry } from "./arbitraries/entry-build.js";
// --- arbitraries: entries and logs -----------------------------------------------------
export type {
  BodyOptions,
  BodySpec,
  EntryKind,
  ReplacementSpec,
} from "./arbitraries/entry-specs.js";
export { bodySpecArb, ENTRY_KINDS } from "./arbitraries/entry-specs.js";
export {
  blankLineArb,
  garbageLineArb,
  isInvalidJsonLine,
  nonObjectLineArb,
} from "./arbitraries/garbage.js";
export type { HeaderOptions } from "./arbitraries/header.js";
export { cwdArb, sessionHeaderArb, sessionIdArb } from "./arbitraries/header.js";
export type { SessionLog } from "./arbitraries/jsonl.js";
export { sessionToJsonl, toJsonl } from "./arbitraries/jsonl.js";

// --- arbitraries: legacy and damaged files ---------------------------------------------
export type { LegacyCompaction, LegacyOptions, LegacySession } from "./arbitraries/legacy.js";
export { legacySessionArb } from "./arbitraries/legacy.js";
export type { MessageOptions, MessageRole } from "./arbitraries/messages.js";
export {
  agentMessageArb,
  assistantMessageArb,
  bashExecutionMessageArb,
  branchSummaryMessageArb,
  compactionSummaryMessageArb,
  customMessageArb,
  MESSAGE_ROLES,
  modelIdArb,
  providerArb,
  systemMessageArb,
  thinkingLevelArb,
  toolResultMessageArb,
  unknownRoleMessageArb,
  userMessageArb,
} from "./arbitraries/messages.js";
export type {
  LogStep,
  ParentSpec,
  SessionLogOptions,
  TreeShape,
} from "./arbitraries/session-log.js";
export {
  buildLogEntries,
  logStepArb,
  sessionEntriesArb,
  sessionJsonlArb,
  sessionLogArb,
} from "./arbitraries/session-log.js";
export type { UsageOptions } from "./arbitraries/usage.js";
export { usageArb } from "./arbitraries/usage.js";
// --- conformance suite -----------------------------------------------------------------
export {
  formatReport,
  runConformance,
  summarizeReport,
} from "./conformance/run-conformance.js";
export { ALL_SCENARIOS as CONFORMANCE_SCENARIOS } from "./conformance/scenarios/index.js";
export type {
  ConformanceFailure,
  ConformanceOptions,
  ConformanceReport,
  ReferenceDeviation,
  Scenario,
  ScenarioContext,
} from "./conformance/types.js";
// --- differential: two implementations side by side (ours vs the reference) -----------
export { IdMap, sameModuloIds } from "./differential/id-map.js";
export type { ObserveOptions, Outcome } from "./differential/observe.js";
export {
  attempt,
  DifferentialMismatch,
  expectSame,
  expectSameModuloIds,
  expectSameView,
  observe,
  treeShape,
} from "./differential/observe.js";
export type { DifferentialOp, DifferentialWorld, OpTarget } from "./differential/ops.js";
export { differentialOpArb, differentialStep } from "./differential/ops.js";
export type { FreeContextFunctions } from "./differential/run.js";
export { compareFreeFunctions, runDifferentialOps } from "./differential/run.js";
export type { BranchCheckOptions } from "./invariants/branch.js";
export { checkI3BranchPaths } from "./invariants/branch.js";
export type { ContextCheckOptions } from "./invariants/context.js";
export { checkI8ContextFromPath, expectedContextEntries } from "./invariants/context.js";
export type { DamageCase, DamageCheckOptions } from "./invariants/damage.js";
export { checkI10DamageRecovery } from "./invariants/damage.js";
export type { FoldCheckOptions, FoldContextLike, FoldLike } from "./invariants/fold.js";
export { checkI6FoldLaws } from "./invariants/fold.js";
export type {
  FileFactory,
  FileHarness,
  FileHarnessOptions,
  HarnessModule,
  InMemoryFactory,
  SessionHarness,
} from "./invariants/harness.js";
export { createFileHarness, createMemoryHarness } from "./invariants/harness.js";
export { canonicalJson, jsonEqual } from "./invariants/json.js";
export type { MigrateFn } from "./invariants/migration.js";
export { checkI7MigrateRecords, checkI7MigrationFile } from "./invariants/migration.js";
export type { DocumentFormat } from "./invariants/round-trip.js";
export {
  CORE_DOCUMENT_FORMAT,
  checkI5ReopenEquals,
  checkI5RoundTrip,
  checkI5TextRoundTrip,
} from "./invariants/round-trip.js";
export type { SessionSnapshot } from "./invariants/snapshots.js";
export { checkI9SessionSnapshots, checkI9Snapshots } from "./invariants/snapshots.js";
export { checkI1Header, checkI2UniqueIdsAndParents } from "./invariants/structure.js";
export type { InvariantInfo, SessionInvariantOptions } from "./invariants/table.js";
export { checkSessionInvariants, INVARIANTS } from "./invariants/table.js";
export { checkI4TreeCoverage, resolveLabelsOf } from "./invariants/tree.js";
export type {
  AppendableSession,
  DiagnosticView,
  EntryView,
  InvariantId,
  SessionData,
  SessionView,
  TreeNodeView,
  Violation,
} from "./invariants/types.js";
export { formatViolation } from "./invariants/types.js";
// --- model-based testing (SessionManager API vs a reference model) ---------------------
export type {
  ContextLike,
  EntryLike,
  JsonObject,
  ProjectionLike,
  SessionManagerFactory,
  SessionManagerLike,
  SessionManagerStatics,
  SessionModuleLike,
  TreeNodeLike,
} from "./model/api.js";
export { asSessionManager, MANAGER_METHODS, missingMethods } from "./model/api.js";
export type { Extras, SessionCommand } from "./model/append-commands.js";
export {
  AppendCompactionCommand,
  AppendContextEditCommand,
  AppendCustomEntryCommand,
  AppendCustomMessageEntryCommand,
  AppendLabelChangeCommand,
  AppendMessageCommand,
  AppendModelChangeCommand,
  AppendSessionInfoCommand,
  AppendThinkingLevelChangeCommand,
  AppendUsageCommand,
} from "./model/append-commands.js";
export type { Target } from "./model/args.js";
export type { CompareOptions } from "./model/check.js";
export { assertMatchesModel, compareWithModel, ModelMismatchError } from "./model/check.js";
export type { ModelProjectedEntry, ModelProjection, ModelRef } from "./model/model-context.js";
export { modelProjection, modelSystemCheckpoint } from "./model/model-context.js";
export type {
  RunSessionModelOptions,
  SessionModelOptions,
  SessionModelReport,
} from "./model/run-model.js";
export {
  runSessionModel,
  sessionCommandArbitraries,
  sessionCommands,
  sessionModelProperty,
  setupSessionModel,
} from "./model/run-model.js";
export {
  ReopenMismatchError,
  runStoreModel,
  storeModelProperty,
} from "./model/run-store-model.js";
export type { ModelLabel, ModelTreeNode } from "./model/session-model.js";
export { SessionModel } from "./model/session-model.js";
export {
  BranchCommand,
  BranchWithSummaryCommand,
  CreateBranchedSessionCommand,
  ReadCommand,
  ResetLeafCommand,
} from "./model/tree-commands.js";
// --- stores the suites run against (memory, JSONL files, or your own) ------------------
export type { SessionStoreFactory, StoreStatics } from "./stores/session-store.js";
export { jsonlFileStore, memoryStore } from "./stores/session-store.js";
