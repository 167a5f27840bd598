export type {
  AnyCustomType,
  CustomContent,
  CustomEntryType,
  CustomMessagePayload,
  CustomMessageType,
  Upcaster,
  Upcasters,
} from "./custom/custom-type.js";
export {
  customEntryType,
  customMessageType,
  PluginDefinitionError,
} from "./custom/custom-type.js";
export type {
  CustomDataProblem,
  CustomDataProblemKind,
  DecodedPayload,
  ValueOfType,
} from "./custom/decode.js";
export {
  decodeCustomEntry,
  decodePayload,
  payloadOfEntry,
  stampVersion,
  storedVersionOf,
} from "./custom/decode.js";
export type { PluginHost } from "./install/install-plugins.js";
export { installPlugins } from "./install/install-plugins.js";
export { branchStateOf, foldBranchState, stepBranchState } from "./plugin/branch-state.js";
export type {
  PluginDiagnostic,
  PluginDiagnosticsState,
  ReadCustomEntry,
} from "./plugin/custom-data.js";
export {
  customDataValidator,
  diagnosticsOf,
  PLUGIN_DIAGNOSTICS,
  pluginDiagnostics,
  pluginDiagnosticsProjection,
  readCustomEntry,
} from "./plugin/custom-data.js";
export type {
  AnyPlugin,
  BranchReducer,
  HookContext,
  ItemOf,
  Plugin,
  PluginHooks,
  PluginSpec,
} from "./plugin/define-plugin.js";
export { definePlugin } from "./plugin/define-plugin.js";
export { pluginProjections } from "./plugin/plugin-projections.js";
export type {
  OwnedType,
  PluginRegistryErrorCode,
  RegisterOptions,
} from "./registry/registry.js";
export { createRegistry, PluginRegistry, PluginRegistryError } from "./registry/registry.js";
export { renderDefaultEntry } from "./render/default-entries.js";
export {
  codeFence as markdownCodeFence,
  codeSpan as markdownCodeSpan,
  containMarkdown,
  escapeInline as escapeMarkdownInline,
} from "./render/markdown.js";
export type { RegisterRendererOptions } from "./render/registry.js";
export {
  createRenderers,
  DuplicateRendererError,
  Renderers,
  registerEntryRenderer,
  registerMessageRenderer,
} from "./render/registry.js";
export type { RenderBranchOptions } from "./render/render-branch.js";
export { renderBranch } from "./render/render-branch.js";
export type { RenderOptions } from "./render/render-entry.js";
export {
  createRenderContext,
  DEFAULT_MAX_TEXT_LENGTH,
  renderEntry,
} from "./render/render-entry.js";
export type { RenderTreeOptions } from "./render/render-tree.js";
export { renderTree } from "./render/render-tree.js";
export type { RenderableSession } from "./render/session-index.js";
export type {
  EntryRenderer,
  MessageRenderer,
  RenderContext,
  RenderFormat,
} from "./render/types.js";
export type {
  UsageTotalsResult,
  UsageTotalsSession,
} from "./usage/compute-usage.js";
export { computeUsageTotals } from "./usage/compute-usage.js";
export type {
  SessionsUsageTotals,
  SessionUsageInput,
  SessionUsageTotals,
} from "./usage/sessions-usage.js";
export { computeSessionsUsageTotals } from "./usage/sessions-usage.js";
export type { UsageTotalsState } from "./usage/usage-projection.js";
export {
  branchUsageTotals,
  treeUsageTotals,
  USAGE_TOTALS_PROJECTION_NAME,
  usageTotals,
} from "./usage/usage-projection.js";
export type { UsageRecord, UsageRecordSource } from "./usage/usage-records.js";
export { UNATTRIBUTED_USAGE_KEY, usageRecordOf } from "./usage/usage-records.js";
export type {
  NormalizedUsage,
  UsageCostTotals,
  UsageSums,
  UsageTotals,
} from "./usage/usage-sums.js";
export {
  addToSums,
  addToTotals,
  emptyUsageSums,
  emptyUsageTotals,
  normalizeUsage,
} from "./usage/usage-sums.js";
