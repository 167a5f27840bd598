import type { Projection } from "../state/projection.js";

/** The raw `name` of the latest `session_info` in file order, on any branch (SPEC §7.11). */
export interface SessionNameState {
  readonly raw: unknown;
}

/** The session name role (`getSessionName`). */
export interface SessionNameRole<S = unknown> extends Projection<S> {
  readonly name: "sessionName";
  nameOf(state: S): string | undefined;
}

/**
 * The display name: the latest name trimmed, or undefined when it is empty (an empty name
 * clears it) or not a string (lenient where the reference would throw).
 */
export function sessionNameOf(state: SessionNameState): string | undefined {
  return typeof state.raw === "string" ? state.raw.trim() || undefined : undefined;
}

/** The built-in session name projection. */
export const sessionNameProjection: SessionNameRole<SessionNameState> = {
  name: "sessionName",
  types: ["session_info"],
  init: () => ({ raw: undefined }),
  apply: (state, entry) =>
    entry.type === "session_info" ? { raw: (entry as { name?: unknown }).name } : state,
  nameOf: sessionNameOf,
};

/**
 * The stored form of a name given to appendSessionInfo: each run of CR/LF becomes one space,
 * then the result is trimmed; inner spaces are kept (SPEC §5.4).
 */
export function sanitizeSessionName(name: string): string {
  return String(name)
    .replace(/[\r\n]+/g, " ")
    .trim();
}
