/** Resolving an entry id given on the command line (`--leaf ID`): the id or a unique prefix. */

import { entryOf, type SessionEntry } from "@pi-sessions/core";
import { notFoundError, usageError } from "../io/errors.js";
import type { LoadedSession } from "./load-session.js";

/** The ids of a session as `--leaf` looks them up (a loaded file, or the index). */
export interface EntryIds {
  /** Whether an entry has exactly this id. */
  has(id: string): boolean;
  /** The distinct ids that start with `prefix`, in the file order of their first entry. */
  startingWith(prefix: string): readonly string[];
}

/**
 * The id `ref` names among `ids`: that id, else the one id that starts with it. Throws exit 1
 * when none matches, exit 2 when the prefix is ambiguous (naming the first five, file order).
 */
export function resolveEntryId(ids: EntryIds, ref: string, path: string): string {
  if (ref === "") throw usageError("empty entry id");
  if (ids.has(ref)) return ref;
  const matches = ids.startingWith(ref);
  if (matches.length === 1) return matches[0] as string;
  if (matches.length > 1) {
    const shown = matches.slice(0, 5).join(", ");
    throw usageError(`entry "${ref}" is ambiguous: ${shown}${matches.length > 5 ? ", …" : ""}`);
  }
  throw notFoundError(`no entry "${ref}" in ${path}`);
}

/** The ids of a loaded session. */
export function idsOf(session: LoadedSession): EntryIds {
  return {
    has: (id) => entryOf(session.state, id) !== undefined,
    startingWith: (prefix) => [
      ...new Set(session.entries.filter((e) => e.id.startsWith(prefix)).map((e) => e.id)),
    ],
  };
}

/**
 * The entry `ref` names in a session: the entry with exactly that id, else the one entry whose
 * id starts with it. Throws exit 1 when none matches, exit 2 when the prefix is ambiguous.
 */
export function resolveEntryRef(session: LoadedSession, ref: string): SessionEntry {
  return entryOf(session.state, resolveEntryId(idsOf(session), ref, session.path)) as SessionEntry;
}
