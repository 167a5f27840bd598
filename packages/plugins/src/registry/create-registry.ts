/**
 * `createRegistry`: a registry of a list of plugins, the usual way to make one (an install
 * takes a list and makes its registry with it).
 */
import { type AnyPlugin, PluginRegistry, type RegisterOptions } from "./registry.js";

/**
 * A registry of `plugins`, registered in order; throws `PluginRegistryError` on the
 * first collision unless `override` is set.
 */
export function createRegistry(
  plugins: readonly AnyPlugin[] = [],
  options: RegisterOptions = {},
): PluginRegistry {
  let registry = PluginRegistry.empty();
  for (const p of plugins) registry = registry.register(p, options);
  return registry;
}
