// The package's surface: every module whose exports are all public is re-exported whole; the
// rest name what they share (their other exports serve this package only). The committed
// report api/plugins.api.md lists the result, so a change of surface shows in review.
export * from "./custom/custom-type.js";
export * from "./custom/decode.js";
export * from "./install/install-plugins.js";
export type { BranchRecipe } from "./plugin/branch-recipe.js";
export * from "./plugin/branch-state.js";
export * from "./plugin/custom-data.js";
export * from "./plugin/define-plugin.js";
export * from "./plugin/plugin-projections.js";
export * from "./plugin/wire-entries.js";
export * from "./registry/create-registry.js";
export * from "./registry/registry.js";
export * from "./registry/registry-error.js";
export { renderDefaultEntry } from "./render/default-entries.js";
export type {
  DescribedPart,
  EntryDescription,
  InlineRun,
  InlineText,
} from "./render/entry-description.js";
export { escapeHtml } from "./render/html.js";
export {
  codeFence as markdownCodeFence,
  codeSpan as markdownCodeSpan,
  containMarkdown,
  escapeInline as escapeMarkdownInline,
} from "./render/markdown.js";
export * from "./render/registry.js";
export type { RenderBranchOptions } from "./render/render-branch.js";
export { renderBranch } from "./render/render-branch.js";
export type { HtmlRenderOptions, RenderOptions } from "./render/render-entry.js";
export {
  createRenderContext,
  DEFAULT_MAX_TEXT_LENGTH,
  renderEntry,
  renderEntryHtml,
} from "./render/render-entry.js";
export * from "./render/render-tree.js";
export type { RenderableSession } from "./render/session-index.js";
export * from "./render/types.js";
export { isWireType, type WireType, type WireTypeView, wireType } from "./render/wire-type.js";
export * from "./usage/compute-usage.js";
export * from "./usage/sessions-usage.js";
export { USAGE_TOTALS_PROJECTION_NAME, usageTotalsRule } from "./usage/usage-name.js";
export * from "./usage/usage-projection.js";
export * from "./usage/usage-records.js";
export * from "./usage/usage-sums.js";
