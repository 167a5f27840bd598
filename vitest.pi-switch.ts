import { fileURLToPath } from "node:url";
import { mergeConfig, type Plugin } from "vitest/config";
import { sharedConfig } from "./vitest.shared.js";

/**
 * Vitest settings for tests that run pi's SDK over pi's SessionManager and over ours. pi's
 * runtime names the class through its own module, so that module is swapped: pi's package is
 * inlined (Vite transforms it, so imports between its files go through the resolver) and every
 * import of its `dist/core/session-manager.js` resolves to test-utils' pi-switch.ts, which
 * re-exports pi's module with a switchable `SessionManager` (`useSessionManager`).
 */
const SWITCH = fileURLToPath(new URL("./packages/test-utils/src/pi-switch.ts", import.meta.url));
const PI_SESSION_MANAGER = "/@earendil-works/pi-coding-agent/dist/core/session-manager.js";

const switchPiSessionManager = (): Plugin => ({
  name: "switch-pi-session-manager",
  enforce: "pre",
  async resolveId(source, importer, options) {
    if (!importer || importer === SWITCH || !source.endsWith("session-manager.js")) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved?.id.endsWith(PI_SESSION_MANAGER) ? SWITCH : null;
  },
});

/** The shared settings plus the switch. */
export const piSwitchConfig = mergeConfig(sharedConfig, {
  plugins: [switchPiSessionManager()],
  test: { server: { deps: { inline: [/@earendil-works\/pi-coding-agent/] } } },
});
