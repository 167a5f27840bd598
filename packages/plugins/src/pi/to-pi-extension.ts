/**
 * `toPiExtension`: plugins as a whole pi extension, for the common case of an extension file
 * that is nothing but its plugins: `export default toPiExtension(todoPlugin)`.
 */
import type { ExtensionAPI, ExtensionFactory } from "@earendil-works/pi-coding-agent";
import { createRegistry } from "../registry/create-registry.js";
import type { AnyPlugin } from "../registry/registry.js";
import { installPiPlugin } from "./pi-host.js";
import type { PiPluginOptions } from "./pi-host-types.js";

/**
 * A pi extension factory that installs every plugin ({@link installPiPlugin}) into each
 * runtime pi creates. Throws `PluginRegistryError` at once (not inside pi) when two plugins
 * claim the same customType, renderer or name. For commands and tools that use a plugin's
 * state, write the factory yourself and call `installPiPlugin(pi, plugin)` in it.
 */
export function toPiExtension(...plugins: AnyPlugin[]): ExtensionFactory {
  return toPiExtensionWith(plugins);
}

/** {@link toPiExtension} with options (the renderers' format). */
export function toPiExtensionWith(
  plugins: readonly AnyPlugin[],
  options: PiPluginOptions = {},
): ExtensionFactory {
  createRegistry(plugins);
  return (pi: ExtensionAPI) => {
    for (const plugin of plugins) installPiPlugin(pi, plugin, options);
  };
}
