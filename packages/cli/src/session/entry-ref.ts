/** Resolving an entry id given on the command line (`--leaf ID`): the id or a unique prefix. */

import { entryOf, type SessionEntry } from "@pi-sessions/core";
import { notFoundError, usageError } from "../io/errors.js";
import type { LoadedSession } from "./load-session.js";

/**
 * The entry `ref` names in a session: the entry with exactly that id, else the one entry whose
 * id starts with it. Throws exit 1 when none matches, exit 2 when the prefix is ambiguous.
 */
export function resolveEntryRef(session: LoadedSession, ref: string): SessionEntry {
  if (ref === "") throw usageError("empty entry id");
  const exact = entryOf(session.state, ref);
  if (exact !== undefined) return exact;
  const matches = new Map<string, SessionEntry>();
  for (const e of session.entries) if (e.id.startsWith(ref)) matches.set(e.id, e);
  if (matches.size === 1) return [...matches.values()][0] as SessionEntry;
  if (matches.size > 1) {
    const ids = [...matches.keys()].slice(0, 5).join(", ");
    throw usageError(`entry "${ref}" is ambiguous: ${ids}${matches.size > 5 ? ", …" : ""}`);
  }
  throw notFoundError(`no entry "${ref}" in ${session.path}`);
}
