import type { SessionEntry } from "../schema/types.js";
import { defineProjection } from "../state/projection.js";

/**
 * The session name: the latest `session_info` in file order, on any branch (SPEC §7.11).
 * Its state is just that entry's raw `name`, so folding is O(1) and snapshots are plain values.
 */
export interface SessionNameState {
  /** Whether any session_info entry was seen. */
  readonly seen: boolean;
  /** The raw `name` of the latest session_info entry. */
  readonly raw: unknown;
}

/** Session name projection. */
export const sessionNameProjection = defineProjection<SessionNameState>({
  name: "sessionName",
  init: () => ({ seen: false, raw: undefined }),
  apply: (state, entry: SessionEntry) =>
    entry.type === "session_info" ? { seen: true, raw: (entry as { name?: unknown }).name } : state,
});

/**
 * The display name: the latest name trimmed, or undefined when it is empty (an empty name
 * clears it) or not a string (lenient where the reference would throw).
 */
export function sessionNameOf(state: SessionNameState): string | undefined {
  if (typeof state.raw !== "string") return undefined;
  return state.raw.trim() || undefined;
}

/**
 * The stored form of a name given to appendSessionInfo: each run of CR/LF becomes one space,
 * then the result is trimmed; inner spaces are kept (SPEC §5.4).
 */
export function sanitizeSessionName(name: string): string {
  return String(name)
    .replace(/[\r\n]+/g, " ")
    .trim();
}
