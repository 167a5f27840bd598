/**
 * Every instance method of {@link SessionManagerLike}, derived from the two tables that say how
 * the testkit uses it: the calls that change a session ({@link MANAGER_CALLS}) and the reads
 * the checks observe ({@link READ_METHODS}). Both tables together must name exactly the
 * methods of `SessionManagerLike`, and core's `SessionManager` must fit that interface and
 * list every other public method it has in {@link NOT_DRIVEN} with the reason, so a method
 * added to core fails to compile here until it is driven (a call or a read) or set aside.
 */
import type { SessionManager } from "@pi-sessions/core";
import type { SessionManagerLike } from "./manager-api.js";
import { CALL_NAMES, type CallName } from "./manager-calls.js";

/**
 * How the checks observe a read: once per step on the whole session, or also on every known
 * id (getEntry, getLabel, getChildren, getBranch take an id).
 */
export type ReadScope = "session" | "per-id";

/** The methods that only read, with how the model check and the differential check call them. */
export const READ_METHODS = {
  getEntries: "session",
  getEntry: "per-id",
  getEntryCount: "session",
  getLeafId: "session",
  getLeafEntry: "session",
  getBranch: "per-id",
  getTree: "session",
  getLabel: "per-id",
  getChildren: "per-id",
  getSessionName: "session",
  getHeader: "session",
  getSessionId: "session",
  getSessionFile: "session",
  getSessionDir: "session",
  getCwd: "session",
  isPersisted: "session",
  buildSessionContext: "session",
  buildSessionProjection: "session",
  buildContextEntries: "session",
} as const satisfies Record<Exclude<keyof SessionManagerLike, CallName>, ReadScope>;

/** The names of the public methods of `T` (its function-valued keys). */
type MethodNames<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never;
}[keyof T];

/**
 * Core's public instance methods the model and differential checks do not drive, and why. The
 * `satisfies` makes the compiler list a new core method here until it is driven or set aside.
 */
export const NOT_DRIVEN = {
  setSessionFile: "switches to another file: the file-backed differential test drives it",
  newSession: "starts another session: the file-backed differential test drives it",
  close: "ends a persisted session; the in-memory runs have nothing to close",
  flush: "awaits queued writes; the store model checks what reached the store",
  usesDefaultSessionDir: "a fact of construction, checked by the conformance suite",
  getState: "core's folded state, not part of pi's API",
  getProjectionState: "a plugin projection's state, not part of pi's API",
  getLoadDiagnostics: "what a load found; the damaged-file properties check it",
  getEntryLineNumber: "a line of the loaded text; the damaged-file properties check it",
  addEntryValidator: "core's extension point, not part of pi's API",
  addProjection: "core's extension point, not part of pi's API",
  removeProjection: "core's extension point, not part of pi's API",
  appendDefinedEntry:
    "a plugin's own entry type, not part of pi's API; the plugins' tests drive it",
} as const satisfies Record<Exclude<MethodNames<SessionManager>, keyof SessionManagerLike>, string>;

/** Core's manager must have every method the testkit drives, with compatible signatures. */
const CORE_FITS: SessionManager extends SessionManagerLike ? true : never = true;
void CORE_FITS;

/** The instance methods {@link SessionManagerLike} names, for run-time shape checks. */
export const MANAGER_METHODS: readonly (keyof SessionManagerLike)[] = Object.freeze([
  ...CALL_NAMES,
  ...(Object.keys(READ_METHODS) as (keyof typeof READ_METHODS)[]),
]);

/** The names of {@link MANAGER_METHODS} that `value` lacks (as functions). */
export function missingMethods(
  value: unknown,
  names: readonly string[] = MANAGER_METHODS,
): string[] {
  if (value === null || (typeof value !== "object" && typeof value !== "function"))
    return [...names];
  const record = value as Record<string, unknown>;
  return names.filter((name) => typeof record[name] !== "function");
}

/**
 * `value` as a {@link SessionManagerLike}, or an Error naming the missing methods. Never
 * throws: callers decide how a malformed implementation is reported.
 */
export function asSessionManager(value: unknown): SessionManagerLike | Error {
  const missing = missingMethods(value);
  if (missing.length === 0) return value as SessionManagerLike;
  return new Error(`not a SessionManager: missing ${missing.join(", ")}`);
}
