/**
 * The reference implementation (npm @earendil-works/pi-coding-agent@1.6.0, a devDependency),
 * loaded by file path: its package exports do not expose the session module.
 */

/** The reference's session module URL. */
export const REFERENCE_URL = new URL(
  "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
);

/** The reference's session module (an object with the export names the testkit expects). */
export async function loadReference(): Promise<Record<string, unknown>> {
  return (await import(REFERENCE_URL.href)) as Record<string, unknown>;
}

/** `SessionManager.inMemory` of a loaded session module. */
export function inMemoryOf(module: Record<string, unknown>): () => object {
  const statics = module.SessionManager as { inMemory(cwd?: string): object };
  return () => statics.inMemory("/work/project");
}
