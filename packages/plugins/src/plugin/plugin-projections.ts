/**
 * Plugins in a bare state fold (no manager): the projections to hand to core's `replayState`,
 * `foldEntries` or `SessionManager` options.
 */
import type { Projection } from "@pi-sessions/core";
import type { PluginRegistry } from "../registry/registry.js";
import { pluginDiagnosticsProjection } from "./custom-data.js";

/**
 * Every projection of the registry's plugins plus one that collects invalid custom data
 * (read it back with `pluginDiagnostics(state)`), e.g.
 * `replayState(header, entries, pluginProjections(registry))`.
 */
export function pluginProjections(registry: PluginRegistry): Projection<unknown>[] {
  return [...registry.projections(), pluginDiagnosticsProjection(registry) as Projection<unknown>];
}
