/**
 * The plugins `--plugin <module>` names, loaded into one registry whose renderers the commands
 * that show entries use. Each module is imported; its exports that are plugins made by
 * `definePlugin` (the default export and named ones alike, one plugin exported under two names
 * counted once) are registered in the order given. Every way this can fail is the user's input
 * and ends the command with one line and exit 2: no such module, a module that throws while
 * loading, a module that exports no plugin, two plugins claiming one key.
 */

import {
  type AnyPlugin,
  PluginRegistry,
  PluginRegistryError,
  type Renderers,
} from "@pi-sessions/plugins";
import { oneLine, usageError } from "../io/errors.js";
import { pluginModuleUrl } from "./resolve-module.js";

/**
 * The plugin `value` is, when `definePlugin` made it: frozen (as every one it returns) and taken
 * by the registry's own check, so the two cannot disagree; `undefined` for any other export. A
 * plugin's shape the registry refuses for a reason (a wire type not made by `defineEntryType`,
 * a built-in type's name: the refusal's `key`) is a usage error with that reason and the
 * module, not skipped as if it were any other export.
 */
function pluginOf(spec: string, value: unknown): AnyPlugin | undefined {
  if (typeof value !== "object" || value === null || !Object.isFrozen(value)) return undefined;
  const result = PluginRegistry.empty().tryRegister(value as AnyPlugin);
  if (result._tag === "Right") return value as AnyPlugin;
  if (result.left.code === "not-a-plugin" && result.left.key !== "") {
    throw usageError(`plugin module ${spec}: ${oneLine(result.left)}`);
  }
  return undefined;
}

/** What an export is, for the message that says a module has no plugin. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object that is not a plugin" : `a ${typeof value}`;
}

/** The plugins `namespace` exports (default first), each once; a usage error when none. */
function pluginsOf(spec: string, namespace: Record<string, unknown>): AnyPlugin[] {
  const names = Object.keys(namespace).sort((a, b) =>
    a === "default" ? -1 : b === "default" ? 1 : 0,
  );
  const plugins: AnyPlugin[] = [];
  for (const name of names) {
    const plugin = pluginOf(spec, namespace[name]);
    if (plugin !== undefined && !plugins.includes(plugin)) plugins.push(plugin);
  }
  if (plugins.length > 0) return plugins;
  const found =
    names.length === 0
      ? "it exports nothing"
      : `found ${names.map((n) => `${n} (${kindOf(namespace[n])})`).join(", ")}`;
  throw usageError(
    `plugin module ${spec} exports no plugin made by definePlugin (default or named export): ${found}`,
  );
}

/** The module's namespace; a usage error naming the module when it cannot be loaded. */
async function importModule(spec: string, url: string): Promise<Record<string, unknown>> {
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw usageError(`plugin module ${spec} failed to load: ${oneLine(error)}`);
  }
}

/**
 * The registry of the plugins in `modules` (paths or package names, resolved from `cwd`), in
 * order. A second claim of a key (a plugin name, an entry type, a renderer's customType) is the
 * registry's refusal, said with the module that made it.
 */
export async function loadPluginRegistry(
  modules: readonly string[],
  cwd: string,
): Promise<PluginRegistry> {
  let registry = PluginRegistry.empty();
  const seen = new Set<string>();
  for (const spec of modules) {
    const url = pluginModuleUrl(spec, cwd);
    if (seen.has(url)) continue; // the same file named twice (flag and environment) is one
    seen.add(url);
    for (const plugin of pluginsOf(spec, await importModule(spec, url))) {
      try {
        registry = registry.register(plugin);
      } catch (error) {
        if (!(error instanceof PluginRegistryError)) throw error;
        // The registry's advice to pass `override` is for code; a command line has no such option.
        const reason = error.message.replace(/\s*\(pass \{ override: true \}[^)]*\)$/, "");
        throw usageError(`plugin module ${spec}: ${reason}`);
      }
    }
  }
  return registry;
}

/** The renderers of the plugins in `modules` (see {@link loadPluginRegistry}). */
export async function loadPluginRenderers(
  modules: readonly string[],
  cwd: string,
): Promise<Renderers> {
  return (await loadPluginRegistry(modules, cwd)).renderers();
}
