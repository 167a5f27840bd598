/**
 * Which SessionManager class pi's runtime uses for the sessions it starts, resumes and forks:
 * pi's own, or ours from `@pi-sessions/core`. The switch exists only when pi was loaded after
 * `@pi-sessions/testkit/pi-hook` (see manager-hook-loader.ts); without it pi's runtime always
 * uses its own class, and asking for ours fails with a message that says what to do.
 */
import * as pi from "@earendil-works/pi-coding-agent";
import { SessionManager as OurSessionManager } from "@pi-sessions/core";

/** Which SessionManager a pi test runs over. */
export type PiManagerSide = "pi" | "ours";

interface Switch {
  readonly pi: unknown;
  use(cls: unknown): void;
  current(): unknown;
}

const SWITCH_KEY = Symbol.for("@pi-sessions/testkit:pi-session-manager");

/** The switch the hook's stand-in module published, if pi was loaded through it. */
function piSwitch(): Switch | undefined {
  return (globalThis as { [SWITCH_KEY]?: Switch })[SWITCH_KEY];
}

/** Whether pi's runtime can be pointed at our class (the hook ran before pi was loaded). */
export function canSwitchPiSessionManager(): boolean {
  return piSwitch() !== undefined;
}

/**
 * Points pi's runtime at pi's class or at ours and checks that pi's own exports now name it.
 * Throws, saying how to load the hook, when `side` is "ours" and pi was loaded without it.
 */
export function usePiSessionManager(side: PiManagerSide): void {
  const sw = piSwitch();
  if (!sw) {
    if (side === "pi") return;
    throw new Error(
      "pi's runtime can only run over @pi-sessions/core's SessionManager when " +
        "@pi-sessions/testkit/pi-hook is loaded before pi: `node --import @pi-sessions/testkit/pi-hook …`, " +
        'or in vitest `test: { setupFiles: ["@pi-sessions/testkit/pi-hook"] }`',
    );
  }
  sw.use(side === "ours" ? OurSessionManager : undefined);
  const expected = side === "ours" ? OurSessionManager : sw.pi;
  if (pi.SessionManager !== expected) {
    throw new Error(`pi's SessionManager export is not ${side}'s class after the switch`);
  }
}

/** The class pi's runtime uses now (pi's when the hook is not loaded). */
export function currentPiSessionManager(): unknown {
  return piSwitch()?.current() ?? pi.SessionManager;
}
