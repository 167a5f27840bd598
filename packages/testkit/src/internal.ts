/**
 * Every part of the testkit, for its own tests and scripts (imported by relative path; no
 * package entry points here). Tool authors use the deliberate surface in `index.ts`; what is
 * only here (single invariant checkers, the differential runner, entry builders, the model's
 * helpers) may change with any release.
 */

export type { Target } from "./api-calls/call-args.js";
// --- model-based testing (SessionManager API vs a reference model) ---------------------
export * from "./api-calls/manager-api.js";
export * from "./api-calls/manager-calls.js";
export * from "./api-calls/manager-methods.js";
// --- arbitraries: values, entries and logs ----------------------------------------------
export * from "./arbitraries/common.js";
export * from "./arbitraries/content.js";
// --- arbitraries: legacy and damaged files ---------------------------------------------
export type { StructuralSpec } from "./arbitraries/damage-structure.js";
export * from "./arbitraries/damage-types.js";
export * from "./arbitraries/damaged.js";
export * from "./arbitraries/diverged.js";
export * from "./arbitraries/entries.js";
export * from "./arbitraries/entry-build.js";
export * from "./arbitraries/entry-specs.js";
export * from "./arbitraries/garbage.js";
export * from "./arbitraries/header.js";
export * from "./arbitraries/jsonl.js";
export * from "./arbitraries/legacy.js";
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
export * from "./arbitraries/session-log.js";
export * from "./arbitraries/usage.js";
// --- conformance suite -----------------------------------------------------------------
export * from "./conformance/run-conformance.js";
export { ALL_SCENARIOS as CONFORMANCE_SCENARIOS } from "./conformance/scenarios/index.js";
export * from "./conformance/types.js";
// --- differential: two implementations side by side (ours vs the reference) -----------
export * from "./differential/id-map.js";
export * from "./differential/observe.js";
export * from "./differential/ops.js";
export * from "./differential/run.js";
// --- folders: sessions roots with forks and copies, odd values, oracles, checkReader ----
export * from "./folders/check-reader.js";
export * from "./folders/folder-arb.js";
export * from "./folders/folder-types.js";
export type { HostileValueName } from "./folders/hostile-values.js";
export { HOSTILE_VALUE_NAMES, HOSTILE_VALUES } from "./folders/hostile-values.js";
export * from "./folders/info-oracle.js";
export * from "./folders/usage-oracle.js";
export * from "./folders/usage-source.js";
export * from "./folders/write-folder.js";
// --- invariant checkers (DESIGN §4, I1–I10) --------------------------------------------
export type { BranchCheckOptions } from "./invariants/branch.js";
export { checkI3BranchPaths } from "./invariants/branch.js";
export * from "./invariants/context.js";
export * from "./invariants/damage.js";
export * from "./invariants/fold.js";
export * from "./invariants/harness.js";
export { canonicalJson, jsonEqual } from "./invariants/json.js";
export * from "./invariants/migration.js";
export * from "./invariants/round-trip.js";
export * from "./invariants/snapshots.js";
export * from "./invariants/structure.js";
export * from "./invariants/table.js";
export * from "./invariants/tree.js";
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
export * from "./model/append-commands.js";
export * from "./model/check.js";
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
export * from "./model/run-store-model.js";
export type { ModelLabel, ModelTreeNode } from "./model/session-model.js";
export { SessionModel } from "./model/session-model.js";
export * from "./model/targeted-append-commands.js";
export * from "./model/tree-commands.js";

// --- stores the suites run against (memory, JSONL files, or your own) ------------------
export * from "./stores/manager-factory.js";
