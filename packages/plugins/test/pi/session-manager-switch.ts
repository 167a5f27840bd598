/**
 * Stands in for pi's `dist/core/session-manager.js` in the pi tests (vitest.config.ts sends
 * every import of that file here, except this module's own). Everything is pi's module except
 * `SessionManager`, a live binding that {@link useSessionManager} points at pi's class or at
 * `@pi-sessions/core`'s: pi's runtime calls the statics of whichever class it is (create,
 * open, forkFrom on new, resume and fork), so the same SDK test runs over both managers.
 */
import { SessionManager as OurSessionManager } from "@pi-sessions/core";
// The real file, by path: the package does not export it, and the redirect lets this one through.
import { SessionManager as PiSessionManager } from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";

export * from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";

/** Which manager class pi's runtime gets. */
export type ManagerSide = "pi" | "ours";

/** The class pi's runtime sees (module-level, read at every use by pi's transformed code). */
export let SessionManager: typeof PiSessionManager = PiSessionManager;

type AnyClass = abstract new (...args: never[]) => object;

/**
 * Points pi's runtime at pi's class or ours; returns that class and the other one, for the
 * `instanceof` checks that prove the routing.
 */
export function useSessionManager(side: ManagerSide): { cls: AnyClass; other: AnyClass } {
  const [cls, other] =
    side === "ours" ? [OurSessionManager, PiSessionManager] : [PiSessionManager, OurSessionManager];
  SessionManager = cls as unknown as typeof PiSessionManager;
  return { cls: cls as unknown as AnyClass, other: other as unknown as AnyClass };
}
