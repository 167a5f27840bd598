/**
 * Stands in for pi's `dist/core/session-manager.js` in the pi-runtime child processes (see
 * child-preload.ts, whose resolve hook sends every import of that file here, except this
 * module's own import of it). Everything is pi's module, except `SessionManager`: pi's class
 * on side "pi", ours on side "ours", wrapped in the call recorder either way, so both sides
 * load exactly the same code and differ only in the class behind the proxy.
 */
import { SessionManager as OurSessionManager } from "@pi-sessions/core";
// The real file, by path: the package does not export it, and the hook lets this one through.
import { SessionManager as PiSessionManager } from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
import { recordingClass } from "./call-recorder.js";
import { currentSide } from "./child-env.js";

export * from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js";

/** The class pi's runtime gets: ours or pi's, behind the recording proxy. */
export const SessionManager: typeof PiSessionManager = recordingClass(
  (currentSide() === "ours" ? OurSessionManager : PiSessionManager) as typeof PiSessionManager,
  PiSessionManager,
);

/** The unwrapped class of this side, for `instanceof` checks that prove the routing. */
export const SideSessionManager = (currentSide() === "ours"
  ? OurSessionManager
  : PiSessionManager) as unknown as abstract new (
  ...args: never[]
) => object;
