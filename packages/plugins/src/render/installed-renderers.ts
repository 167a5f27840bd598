/**
 * The renderers of the plugins installed into a manager, so `renderBranch(manager)` and
 * `renderTree(manager)` show a plugin's entries its way once `installPlugins` wired it, as a
 * user who installed it expects. Kept beside the manager in a WeakMap: the manager itself is
 * core's and knows nothing of renderers, and a dropped manager takes its entry with it.
 */
import { Renderers } from "./registry.js";

const installed = new WeakMap<object, Renderers[]>();

/**
 * Records `renderers` as installed on `manager`; the returned function forgets them again
 * (`uninstall`). Later installs win a customType clash, as a later registration with override.
 */
export function recordInstalledRenderers(manager: object, renderers: Renderers): () => void {
  const list = installed.get(manager) ?? [];
  list.push(renderers);
  installed.set(manager, list);
  return () => {
    const at = list.indexOf(renderers);
    if (at >= 0) list.splice(at, 1);
  };
}

/** The renderers installed on `source` (none for records or a manager without plugins). */
export function installedRenderersOf(source: unknown): Renderers {
  const list = typeof source === "object" && source !== null ? installed.get(source) : undefined;
  let out = Renderers.empty();
  for (const r of list ?? []) out = out.merge(r, { override: true });
  return out;
}
