/**
 * Installing plugins into a live `SessionManager`: the explicit step that wires a registry's
 * append guard, projections, branch reducers and hooks to one manager, and can undo it.
 */
import type { Projection, SessionEntry, SessionManager } from "@pi-sessions/core";
import type {
  CustomEntryType,
  CustomMessagePayload,
  CustomMessageType,
} from "../custom/custom-type.js";
import { stampVersion } from "../custom/decode.js";
import { BranchStateTracker } from "../plugin/branch-state.js";
import {
  customDataValidator,
  diagnosticsOf,
  PLUGIN_DIAGNOSTICS,
  type PluginDiagnostic,
  type PluginDiagnosticsState,
  pluginDiagnosticsProjection,
  type ReadCustomEntry,
  readCustomEntry,
} from "../plugin/custom-data.js";
import type { AnyPlugin, HookContext, Plugin } from "../plugin/define-plugin.js";
import { createRegistry, PluginRegistry } from "../registry/registry.js";

/** What `installPlugins` returns: the plugins' state on that manager, and the way back. */
export interface PluginHost {
  readonly manager: SessionManager;
  readonly registry: PluginRegistry;
  /** False after {@link uninstall}. */
  readonly installed: boolean;
  /**
   * The plugin's branch state at the manager's current leaf (its reducer folded over its own
   * entries, root → leaf). O(1) while appending at the leaf; O(path) once after a leaf move.
   */
  branchState<S>(plugin: Plugin<S, unknown> | string): S;
  /** The state of an installed plugin projection. */
  projectionState<S>(projection: Projection<S>): S | undefined;
  /** Invalid custom data in the current session (entries kept), with file lines when known. */
  diagnostics(): PluginDiagnostic[];
  /** Reads an entry through the registry; undefined when no plugin registered its customType. */
  read(entry: SessionEntry): ReadCustomEntry | undefined;
  /** Appends a `custom` entry of an installed type, stamped with its current version. */
  appendCustom<A>(type: CustomEntryType<string, A>, data: A): string;
  /** Appends a `custom_message` entry of an installed type, stamped with its current version. */
  appendCustomMessage<D, C>(
    type: CustomMessageType<string, D, C>,
    payload: CustomMessagePayload<D, C>,
    display: boolean,
  ): string;
  /** Removes everything the install added (guard, projections, hooks). Idempotent. */
  uninstall(): void;
}

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
 * data are refused (`EntryRejectedError`, nothing written), their projections are folded
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
    const folded = new Set(manager.getState().slots.map((s) => s.projection));
    for (const projection of [...registry.projections(), diagnostics]) {
      if (folded.has(projection)) continue;
      manager.addProjection(projection);
      undo.push(() => manager.removeProjection(projection.name));
    }
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
      if (registry.entryType(type.customType)?.type !== type) {
        throw new Error(`Custom entry type "${type.customType}" is not installed here`);
      }
      return manager.appendCustomEntry(type.customType, stampVersion(type, data));
    },
    appendCustomMessage<D, C>(
      type: CustomMessageType<string, D, C>,
      payload: CustomMessagePayload<D, C>,
      display: boolean,
    ): string {
      live();
      if (registry.messageType(type.customType)?.type !== type) {
        throw new Error(`Custom message type "${type.customType}" is not installed here`);
      }
      const stamped = stampVersion(type, payload) as CustomMessagePayload<unknown, unknown>;
      const content = stamped.content as Parameters<SessionManager["appendCustomMessageEntry"]>[1];
      return manager.appendCustomMessageEntry(type.customType, content, display, stamped.details);
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
