/**
 * Module resolve hook (registered by child-preload.ts with `module.register`): every import
 * of pi's `dist/core/session-manager.js` resolves to session-manager-shim.ts instead, so pi's
 * runtime (`agent-session-runtime.js`, `agent-session.js`, `sdk.js`, the package index, …)
 * gets the shim's SessionManager wherever it names the class. The shim itself imports the
 * real file, so its imports are let through.
 */
import type { ResolveHook } from "node:module";

const SHIM_URL = new URL("./session-manager-shim.ts", import.meta.url).href;
const PI_SESSION_MANAGER = "/@earendil-works/pi-coding-agent/dist/core/session-manager.js";

/** Node resolve hook: redirects pi's session-manager module to the shim. */
export const resolve: ResolveHook = async (specifier, context, nextResolve) => {
  const resolved = await nextResolve(specifier, context);
  if (resolved.url.endsWith(PI_SESSION_MANAGER) && context.parentURL !== SHIM_URL) {
    return { ...resolved, url: SHIM_URL, shortCircuit: true };
  }
  return resolved;
};
