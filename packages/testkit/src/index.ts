/**
 * @pi-sessions/testkit — fast-check arbitraries, invariant checkers, model-based commands and
 * a conformance suite for pi session files.
 *
 * This entry is the deliberate surface for tool authors, listed name by name: what the README
 * documents and what this repository's other packages use. Everything else in the package
 * (single invariant checkers, the differential runner, entry builders, the model's helpers) is
 * internal and may change with any release. The committed API report (`api/testkit.api.md`)
 * shows the surface in review.
 *
 * @packageDocumentation
 */

// --- model-based testing (SessionManager API vs a reference model) ---------------------
export type {
  SessionManagerFactory,
  SessionManagerLike,
  SessionModuleLike,
} from "./api-calls/manager-api.js";
export type {
  DamagedSession,
  DamageKind,
  ExpectedDiagnostic,
  InjectedDamage,
} from "./arbitraries/damage-types.js";
export { DAMAGE_KINDS } from "./arbitraries/damage-types.js";
// --- arbitraries: session logs, damaged, legacy and diverged files --------------------
export type { DamageOptions } from "./arbitraries/damaged.js";
export { damagedSessionArb } from "./arbitraries/damaged.js";
export type { DivergedCopies, DivergedOptions } from "./arbitraries/diverged.js";
export { divergedCopiesArb } from "./arbitraries/diverged.js";
export { garbageLineArb } from "./arbitraries/garbage.js";
export type { SessionLog } from "./arbitraries/jsonl.js";
export { sessionToJsonl } from "./arbitraries/jsonl.js";
export type { LegacyOptions, LegacySession } from "./arbitraries/legacy.js";
export { legacySessionArb } from "./arbitraries/legacy.js";
export type { SessionLogOptions } from "./arbitraries/session-log.js";
export { sessionLogArb } from "./arbitraries/session-log.js";
// --- conformance suite -----------------------------------------------------------------
export { formatReport, runConformance, summarizeReport } from "./conformance/run-conformance.js";
export { ALL_SCENARIOS as CONFORMANCE_SCENARIOS } from "./conformance/scenarios/index.js";
export type {
  ConformanceFailure,
  ConformanceOptions,
  ConformanceReport,
  ReferenceDeviation,
  Scenario,
  ScenarioContext,
} from "./conformance/types.js";
// --- folders: sessions roots with forks and copies, odd values, oracles, checkReader ----
export type {
  CheckReaderOptions,
  CheckReaderReport,
  FolderReader,
  FolderReaderFn,
} from "./folders/check-reader.js";
export { checkReader } from "./folders/check-reader.js";
export type { SessionFolderOptions } from "./folders/folder-arb.js";
export { sessionFolderArb } from "./folders/folder-arb.js";
export type { FolderFile, FolderRecord, SessionFolder } from "./folders/folder-types.js";
export type { HostileValueName } from "./folders/hostile-values.js";
export { HOSTILE_VALUE_NAMES, HOSTILE_VALUES } from "./folders/hostile-values.js";
export type { SessionInfoFacts } from "./folders/info-oracle.js";
export { sessionInfoOracle } from "./folders/info-oracle.js";
export type {
  FileUsage,
  FolderUsage,
  OracleSums,
  UsageOracleOptions,
} from "./folders/usage-oracle.js";
export {
  addSums,
  branchRecords,
  diffSums,
  recordSums,
  usageOracle,
  ZERO_SUMS,
} from "./folders/usage-oracle.js";
export type { UsageSource } from "./folders/usage-source.js";
export { SUMMARIES_KEY, usageSourceOf } from "./folders/usage-source.js";
export { writeFolder } from "./folders/write-folder.js";
// --- invariant checkers (DESIGN §4, I1–I10), all at once ---------------------------------
export { canonicalJson, jsonEqual } from "./invariants/json.js";
export type { InvariantInfo, SessionInvariantOptions } from "./invariants/table.js";
export { checkSessionInvariants, INVARIANTS } from "./invariants/table.js";
export type { InvariantId, Violation } from "./invariants/types.js";
export { formatViolation } from "./invariants/types.js";
export type { SessionCommand } from "./model/append-commands.js";
export {
  AppendCustomEntryCommand,
  AppendCustomMessageEntryCommand,
  AppendMessageCommand,
  AppendModelChangeCommand,
  AppendSessionInfoCommand,
  AppendThinkingLevelChangeCommand,
  AppendUsageCommand,
} from "./model/append-commands.js";
export type { CompareOptions } from "./model/check.js";
export { assertMatchesModel, compareWithModel, ModelMismatchError } from "./model/check.js";
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
} from "./model/run-model.js";
export { ReopenMismatchError, runStoreModel, storeModelProperty } from "./model/run-store-model.js";
export { SessionModel } from "./model/session-model.js";
export {
  AppendCompactionCommand,
  AppendContextEditCommand,
  AppendLabelChangeCommand,
} from "./model/targeted-append-commands.js";
export {
  BranchCommand,
  BranchWithSummaryCommand,
  CreateBranchedSessionCommand,
  ReadCommand,
  ResetLeafCommand,
} from "./model/tree-commands.js";

// --- the store contract: a SessionStore (the port) checked as pi's manager needs it ------
export type {
  ContractStore,
  StoreContractCase,
  StoreContractOptions,
  StoreContractTarget,
} from "./store-contract/contract-target.js";
export { storeContract } from "./store-contract/store-contract.js";

// --- the factories of session managers the model and conformance suites run against ------
export type { ManagerFactory } from "./stores/manager-factory.js";
export { jsonlFileStore, memoryStore } from "./stores/manager-factory.js";
