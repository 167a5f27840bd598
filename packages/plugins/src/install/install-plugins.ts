/**
 * Installing plugins into a live `SessionManager`: the explicit step that wires a registry's
 * append guard, projections, branch reducers and hooks to one manager, and can undo it.
 */
import type { Projection, SessionManager } from "@pi-sessions/core";
import type {
  CustomEntryType,
  CustomMessagePayload,
  CustomMessageType,
} from "../custom/custom-type.js";
import { stampVersion } from "../custom/decode.js";
import {
  customDataValidator,
  diagnosticsOf,
  PLUGIN_DIAGNOSTICS,
  type PluginDiagnosticsState,
  pluginDiagnosticsProjection,
  readCustomEntry,
} from "../plugin/custom-data.js";
import { wireTypeValidator } from "../plugin/wire-entries.js";
import { createRegistry } from "../registry/create-registry.js";
import {
  type AnyPlugin,
  type HookContext,
  type Plugin,
  type PluginHost,
  PluginRegistry,
} from "../registry/registry.js";
import { recordInstalledRenderers } from "../render/installed-renderers.js";
import { BranchStateTracker } from "./branch-state-tracker.js";

/** A diagnostics projection name not yet used on this manager. */
function freeDiagnosticsName(manager: SessionManager): string {
  let name = PLUGIN_DIAGNOSTICS;
  for (let n = 2; manager.getProjectionState(name) !== undefined; n++) {
    name = `${PLUGIN_DIAGNOSTICS}#${n}`;
  }
  return name;
}

/**
 * Installs plugins into a manager: from then on, appends of their customTypes with invalid
 * data, and of their wire types not matching their codecs, are refused (`EntryRejectedError`,
 * nothing written), `host.appendWireEntry` writes their wire types, their projections are folded
 * (replayed once now), their branch states are kept current, and their hooks receive bus
 * events. Projections the manager already folds (the same objects, e.g. passed as
 * `options.projections`) are used as they are. Throws, having changed nothing, when a
 * different projection of the same name is already there.
 */
export function installPlugins(
  manager: SessionManager,
  plugins: PluginRegistry | readonly AnyPlugin[],
): PluginHost {
  const registry = plugins instanceof PluginRegistry ? plugins : createRegistry(plugins);
  const undo: Array<() => void> = [];
  const rollback = (): void => {
    for (const fn of undo.splice(0).reverse()) fn();
  };
  let installed = true;
  const trackers = new Map<string, BranchStateTracker<unknown>>();
  const diagnostics = pluginDiagnosticsProjection(registry, freeDiagnosticsName(manager));
  try {
    // Trackers first, so hooks that read branch state see this event already folded.
    for (const plugin of registry.plugins) {
      if (plugin.branchState) trackers.set(plugin.name, new BranchStateTracker(plugin, manager));
    }
    const all = [...trackers.values()];
    undo.push(
      manager.events.on("entryAppended", ({ entry }) => {
        for (const t of all) t.appended(entry);
      }),
    );
    undo.push(
      manager.events.on("sessionSwitched", () => {
        for (const t of all) t.invalidate();
      }),
    );
    undo.push(manager.addEntryValidator(customDataValidator(registry)));
    // Only a registry with wire types needs their guard (one more call on every append).
    if (registry.plugins.some((p) => (p.wireTypes?.length ?? 0) > 0)) {
      undo.push(manager.addEntryValidator(wireTypeValidator(registry)));
    }
    const folded = new Set(manager.getState().slots.map((s) => s.projection));
    for (const projection of [...registry.projections(), diagnostics]) {
      if (folded.has(projection)) continue;
      manager.addProjection(projection);
      undo.push(() => manager.removeProjection(projection.name));
    }
    // renderBranch(manager)/renderTree(manager) use these unless given `renderers`.
    undo.push(recordInstalledRenderers(manager, registry.renderers()));
  } catch (error) {
    rollback();
    throw error;
  }

  const live = (): void => {
    if (!installed) throw new Error("These plugins were uninstalled from the manager");
  };
  const host: PluginHost = {
    manager,
    registry,
    get installed() {
      return installed;
    },
    branchState<S>(plugin: Plugin<S, unknown> | string): S {
      live();
      const name = typeof plugin === "string" ? plugin : plugin.name;
      if (!registry.plugin(name)) throw new Error(`Plugin "${name}" is not installed here`);
      const tracker = trackers.get(name);
      if (!tracker) throw new Error(`Plugin "${name}" has no branchState reducer`);
      return tracker.current() as S;
    },
    projectionState: <S>(projection: Projection<S>) =>
      manager.getProjectionState<S>(projection.name),
    diagnostics() {
      live();
      const state = manager.getProjectionState<PluginDiagnosticsState>(diagnostics.name);
      return diagnosticsOf(state).map((d) => {
        const line = manager.getEntryLineNumber(d.position);
        return line === undefined ? d : { ...d, line };
      });
    },
    read: (entry) => readCustomEntry(registry, entry),
    appendCustom<A>(type: CustomEntryType<string, A>, data: A): string {
      live();
      registry.ownType("custom", type);
      return manager.appendCustomEntry(type.customType, stampVersion(type, data));
    },
    appendCustomMessage<D, C>(
      type: CustomMessageType<string, D, C>,
      payload: CustomMessagePayload<D, C>,
      display: boolean,
    ): string {
      live();
      registry.ownType("custom_message", type);
      const stamped = stampVersion(type, payload) as CustomMessagePayload<unknown, unknown>;
      const content = stamped.content as Parameters<SessionManager["appendCustomMessageEntry"]>[1];
      return manager.appendCustomMessageEntry(type.customType, content, display, stamped.details);
    },
    appendWireEntry(type, fields) {
      live();
      const wire = registry.ownWireType(type);
      return manager.appendDefinedEntry(wire.definition, fields as never);
    },
    uninstall() {
      if (!installed) return;
      installed = false;
      rollback();
    },
  };

  try {
    for (const plugin of registry.plugins) {
      const ctx: HookContext = { manager, plugin: plugin.name, host };
      for (const [event, hook] of Object.entries(plugin.hooks)) {
        const handler = (payload: unknown) =>
          (hook as (e: unknown, c: HookContext) => void)(payload, ctx);
        undo.push(manager.events.on(event as "entryAppended", handler));
      }
    }
  } catch (error) {
    installed = false;
    rollback();
    throw error;
  }
  return host;
}
