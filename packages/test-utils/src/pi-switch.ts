/**
 * Stands in for pi's `dist/core/session-manager.js` in tests that run pi's SDK over either
 * manager (vitest.pi-switch.ts at the repository root sends every import of that file here,
 * except this module's own). Everything is pi's module except `SessionManager`, a live binding
 * that {@link useSessionManager} points at pi's class or at ours: pi's runtime calls the
 * statics of whichever class it is (create, open, forkFrom on new, resume and fork), so one
 * SDK test runs over both managers.
 */
// The real file, by path: the package does not export it, and the redirect lets this one through.
import { SessionManager as PiSessionManager } from "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";

export * from "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";

/** Which manager class pi's runtime gets. */
export type ManagerSide = "pi" | "ours";

/** The class pi's runtime sees (module-level, read at every use by pi's transformed code). */
export let SessionManager: typeof PiSessionManager = PiSessionManager;

/** A manager class, for the `instanceof` checks that prove the routing. */
export type ManagerClass = abstract new (...args: never[]) => object;

/**
 * Points pi's runtime at pi's class (`"pi"`) or at `ours` (`@pi-sessions/core`'s class, passed
 * in so that this package does not depend on core); returns that class and the other one.
 */
export function useSessionManager(
  side: ManagerSide,
  ours: object,
): { cls: ManagerClass; other: ManagerClass } {
  // Typed loosely: core's constructor is protected, so its class is no constructor type.
  const mine = ours as ManagerClass;
  const pi = PiSessionManager as unknown as ManagerClass;
  const [cls, other] = side === "ours" ? [mine, pi] : [pi, mine];
  SessionManager = cls as unknown as typeof PiSessionManager;
  return { cls, other };
}
