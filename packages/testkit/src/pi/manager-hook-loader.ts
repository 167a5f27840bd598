/**
 * Node module hooks (registered by `pi-hook.ts` with `module.register`) that let a test run
 * pi's runtime over another SessionManager class. pi names the class through its own module
 * (`dist/core/session-manager.js`) when it starts, resumes and forks sessions, so every import
 * of that module is sent to a small generated module instead: pi's module re-exported, with
 * `SessionManager` a binding that {@link ../pi/manager-switch.ts} points at pi's class or ours.
 * The generated module's own import of the real file is let through.
 *
 * Plain ES module code with types only erasable, so Node's loader thread runs it from the
 * compiled dist and, in this repository, from source.
 */

const PI_SESSION_MANAGER = "/@earendil-works/pi-coding-agent/dist/core/session-manager.js";
/** Marks the stand-in's URL: the real file's URL with this query. */
const TAG = "?pi-sessions-switch";
/** Where the stand-in publishes its switch (read by manager-switch.ts). */
const SWITCH_KEY = "@pi-sessions/testkit:pi-session-manager";

interface Resolved {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context: unknown) => Promise<Resolved>;
interface LoadResult {
  format: string;
  source?: string;
  shortCircuit?: boolean;
}
type NextLoad = (url: string, context: unknown) => Promise<LoadResult>;

/** Sends imports of pi's session-manager module (except the stand-in's own) to the stand-in. */
export async function resolve(
  specifier: string,
  context: { parentURL?: string },
  next: NextResolve,
): Promise<Resolved> {
  const resolved = await next(specifier, context);
  if (!resolved.url.endsWith(PI_SESSION_MANAGER) || context.parentURL?.endsWith(TAG)) {
    return resolved;
  }
  return { ...resolved, url: `${resolved.url}${TAG}`, shortCircuit: true };
}

/** The stand-in's source: pi's module, with a switchable `SessionManager` binding. */
export async function load(url: string, context: unknown, next: NextLoad): Promise<LoadResult> {
  if (!url.endsWith(`${PI_SESSION_MANAGER}${TAG}`)) return next(url, context);
  const real = JSON.stringify(url.slice(0, -TAG.length));
  const source = [
    `import { SessionManager as PiSessionManager } from ${real};`,
    `export * from ${real};`,
    "export let SessionManager = PiSessionManager;",
    `globalThis[Symbol.for(${JSON.stringify(SWITCH_KEY)})] = {`,
    "  pi: PiSessionManager,",
    "  use(cls) { SessionManager = cls ?? PiSessionManager; },",
    "  current() { return SessionManager; },",
    "};",
  ].join("\n");
  return { format: "module", source, shortCircuit: true };
}
