/**
 * The append guard of the plugins' wire types: once installed, an entry whose `type` is one
 * of them must match that type's codec, whichever append wrote it (the host's, or core's
 * `appendDefinedEntry` with another definition of the same name).
 */
import type { EntryValidator } from "@pi-sessions/core";
import { decodeWith } from "@pi-sessions/core/internal";
import { isLeft } from "fp-ts/lib/Either.js";
import type { PluginRegistry } from "../registry/registry.js";

/**
 * The guard of `registry`'s wire types (give it to `manager.addEntryValidator`): O(1) for an
 * entry of any other type; the refusal names the plugin, the type and every io-ts path.
 */
export function wireTypeValidator(registry: PluginRegistry): EntryValidator {
  return (entry) => {
    const owned = registry.wireType(entry.type);
    if (owned === undefined) return undefined;
    const decoded = decodeWith(owned.type.definition.codec, entry);
    if (!isLeft(decoded)) return undefined;
    return {
      reason: `entry type "${entry.type}" does not match its definition`,
      issues: decoded.left,
      source: `plugin "${owned.plugin.name}"`,
    };
  };
}
