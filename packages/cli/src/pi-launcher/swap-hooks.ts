/**
 * The module hooks that put our `SessionManager` into pi (SPEC L1). Every import of pi's
 * `dist/core/session-manager.js`, from whichever of pi's modules, resolves to one module made
 * here: everything pi's module exports, unchanged, except `SessionManager`, which is ours
 * (launcher-session-manager.ts). That module's own import of pi's file is let through. When the
 * entry point is pi's bundle (`node --import … $(which pi)`), it is replaced by pi's unbundled
 * `dist/cli.js`, the only entry whose imports can be redirected. Nothing else is altered.
 */

import { type LoadHookSync, type ResolveHookSync, registerHooks } from "node:module";
import { pathToFileURL } from "node:url";
import type { PiPackage } from "./pi-package.js";

/**
 * The URL of the made module: a name beside this file, so its relative import of our manager
 * resolves to the sibling module (compiled `.js`, or `.ts` when run from the sources).
 */
export const SWAPPED_URL = new URL("./swapped-session-manager.js", import.meta.url).href;

/** The source of the made module: pi's exports, with our `SessionManager` in front. */
export function swappedSource(piSessionManagerUrl: string): string {
  return [
    // An explicit export shadows the same name of a star export: everything but the class
    // comes from pi's module, bound live, exactly as pi's own importers would see it.
    `export * from ${JSON.stringify(piSessionManagerUrl)};`,
    `export { SessionManager } from "./launcher-session-manager.js";`,
    "",
  ].join("\n");
}

/** The resolve and load hooks for one pi package. */
export function swapHooks(pi: PiPackage): { resolve: ResolveHookSync; load: LoadHookSync } {
  const piSessionManager = pathToFileURL(pi.sessionManager).href;
  const bundle = pathToFileURL(pi.bin).href;
  const cli = pathToFileURL(pi.cli).href;
  return {
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      if (resolved.url === piSessionManager && context.parentURL !== SWAPPED_URL) {
        return { url: SWAPPED_URL, format: "module", shortCircuit: true };
      }
      if (context.parentURL === undefined && resolved.url === bundle && bundle !== cli) {
        return { ...resolved, url: cli, shortCircuit: true };
      }
      return resolved;
    },
    load(url, context, nextLoad) {
      if (url !== SWAPPED_URL) return nextLoad(url, context);
      return { format: "module", source: swappedSource(piSessionManager), shortCircuit: true };
    },
  };
}

/** Registers {@link swapHooks} for `pi` in this process (Node's in-thread module hooks). */
export function installSwap(pi: PiPackage): void {
  registerHooks(swapHooks(pi));
}
