/**
 * The reference implementation, pi's own session module (npm
 * `@earendil-works/pi-coding-agent`, the version pinned in this package), loaded by file path:
 * the package's exports do not expose it. Tests use it as a black-box oracle, calling only its
 * public API; each test types the part it calls.
 */

/** The URL of the reference's session module. */
export const REFERENCE_SESSION_MODULE = new URL(
  "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
);

/** Imports the reference's session module (the module loader caches it). */
export async function loadReference<Module = Record<string, unknown>>(): Promise<Module> {
  return (await import(REFERENCE_SESSION_MODULE.href)) as Module;
}
