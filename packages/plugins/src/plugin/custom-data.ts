/**
 * Custom data checks against a registry: the append guard (refuse invalid data before
 * anything is written) and the diagnostics projection (report invalid data that was loaded,
 * keeping the entry). Both decode through the same memoised reader, so an entry that passed
 * the guard is not decoded again when folded.
 */
import {
  type CustomEntry,
  type CustomMessageEntry,
  defineProjection,
  type EntryValidator,
  type Projection,
  type SessionEntry,
  type SessionState,
} from "@pi-sessions/core";
import { isRight } from "fp-ts/lib/Either.js";
import type { AnyCustomType } from "../custom/custom-type.js";
import {
  decodeCustomEntry,
  type PluginDiagnostic,
  type ReadCustomEntry,
} from "../custom/decode.js";
import type { OwnedType, PluginRegistry } from "../registry/registry.js";

/** The registered type of a `custom` / `custom_message` entry, if any. O(1). */
function ownerOf(
  registry: PluginRegistry,
  entry: Readonly<SessionEntry>,
): OwnedType<AnyCustomType> | undefined {
  if (entry.type === "custom") return registry.entryType(entry.customType);
  if (entry.type === "custom_message") return registry.messageType(entry.customType);
  return undefined;
}

/** Reads an entry through the registry: undefined for entries no plugin registered. */
export function readCustomEntry(
  registry: PluginRegistry,
  entry: Readonly<SessionEntry>,
): ReadCustomEntry | undefined {
  const owned = ownerOf(registry, entry);
  if (!owned) return undefined;
  const custom = entry as CustomEntry | CustomMessageEntry;
  return {
    plugin: owned.plugin.name,
    type: owned.type,
    entry: custom,
    decoded: decodeCustomEntry(owned.type, custom),
  };
}

/**
 * The append guard of a registry (give it to `manager.addEntryValidator`): a `custom` or
 * `custom_message` entry of a registered customType must read back as the current version
 * (after upcasting, when it carries an older `v`). The refusal names the plugin, the
 * customType and every io-ts path (`data.title`, `details.v`).
 */
export function customDataValidator(registry: PluginRegistry): EntryValidator {
  return (entry) => {
    const read = readCustomEntry(registry, entry);
    if (!read || isRight(read.decoded)) return undefined;
    const problem = read.decoded.left;
    const what = read.type.kind === "custom" ? "custom entry" : "custom message";
    return {
      source: `plugin "${read.plugin}"`,
      reason: `${what} "${read.type.customType}" (v${problem.version}) cannot be read: ${problem.kind}`,
      issues: problem.issues,
    };
  };
}

/** An immutable list, newest first: O(1) to extend, so a damaged file costs O(n) to load. */
interface DiagnosticList {
  readonly head: PluginDiagnostic;
  readonly tail: DiagnosticList | null;
}

/** The state of a diagnostics projection. */
export interface PluginDiagnosticsState {
  readonly list: DiagnosticList | null;
  readonly count: number;
}

const diagnosticsProjections = new WeakSet<Projection<unknown>>();

/** The name {@link pluginDiagnosticsProjection} uses unless told otherwise. */
export const PLUGIN_DIAGNOSTICS = "plugins:diagnostics";

/**
 * A projection that collects invalid custom data of the registry's types over the whole
 * log, in file order. Loading never fails for it: the entries stay, the problems are listed.
 */
export function pluginDiagnosticsProjection(
  registry: PluginRegistry,
  name: string = PLUGIN_DIAGNOSTICS,
): Projection<PluginDiagnosticsState> {
  const projection = defineProjection<PluginDiagnosticsState>({
    name,
    init: () => ({ list: null, count: 0 }),
    apply: (state, entry, ctx) => {
      const read = readCustomEntry(registry, entry);
      if (!read || isRight(read.decoded)) return state;
      const problem = read.decoded.left;
      const head: PluginDiagnostic = {
        plugin: read.plugin,
        entryType: read.type.kind,
        customType: read.type.customType,
        entryId: entry.id,
        position: ctx.position,
        kind: problem.kind,
        issues: problem.issues,
        message: problem.message,
      };
      return { list: { head, tail: state.list }, count: state.count + 1 };
    },
  });
  diagnosticsProjections.add(projection as Projection<unknown>);
  return projection;
}

/** The diagnostics of a diagnostics projection's state, in file order. */
export function diagnosticsOf(state: PluginDiagnosticsState | undefined): PluginDiagnostic[] {
  const out: PluginDiagnostic[] = [];
  for (let node = state?.list ?? null; node !== null; node = node.tail) out.push(node.head);
  return out.reverse();
}

/**
 * The plugin diagnostics of a session state folded with {@link pluginDiagnosticsProjection}
 * (e.g. through `pluginProjections`), whatever its name; empty when it was not folded.
 */
export function pluginDiagnostics(state: SessionState): PluginDiagnostic[] {
  const slot = state.slots.find((s) => diagnosticsProjections.has(s.projection));
  return diagnosticsOf(slot?.state as PluginDiagnosticsState | undefined);
}
