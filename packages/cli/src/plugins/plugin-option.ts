/**
 * `--plugin <module>` (repeatable) and `$PI_SESSIONS_PLUGINS`: the plugins whose renderers a
 * command that shows entries (`tree`, `export`) uses for their types. This module stays free
 * of the plugins package: the loader is imported only when a plugin is named, so a command run
 * without one loads nothing more than before.
 */

import { delimiter } from "node:path";
import type { Renderers } from "@pi-sessions/plugins";
import type { Command } from "commander";
import type { CliIo } from "../io/io.js";

/** The options {@link withPluginOption} adds. */
export interface PluginOptions {
  /** `--plugin` values in the order given. */
  plugin?: string[];
}

/** Commander's collector of a repeatable option: every value, in order. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Adds `--plugin <module>` (repeatable) to `command`. */
export function withPluginOption(command: Command): Command {
  return command.option(
    "--plugin <module>",
    "render entries with this plugin module's renderers (a path or package name; repeatable; also $PI_SESSIONS_PLUGINS)",
    collect,
  );
}

/**
 * The plugin modules a run names: `$PI_SESSIONS_PLUGINS` (separated as `PATH` is, by `:`; `;`
 * on Windows), then each `--plugin`, in order.
 */
export function pluginModulesOf(env: NodeJS.ProcessEnv, options: PluginOptions): string[] {
  const fromEnv = (env.PI_SESSIONS_PLUGINS ?? "").split(delimiter).filter((m) => m.trim() !== "");
  return [...fromEnv, ...(options.plugin ?? [])];
}

/**
 * The renderers of the plugins a run names, or undefined when it names none (then the plugins'
 * loader is never imported). Rejects with a usage error (exit 2, one line) for a module that is
 * missing, throws while loading, exports no plugin, or claims what another plugin claimed.
 */
export async function pluginRenderersOf(
  io: Pick<CliIo, "env" | "cwd">,
  options: PluginOptions,
): Promise<Renderers | undefined> {
  const modules = pluginModulesOf(io.env, options);
  if (modules.length === 0) return undefined;
  const { loadPluginRenderers } = await import("./load-plugins.js");
  return loadPluginRenderers(modules, io.cwd);
}
