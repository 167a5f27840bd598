/**
 * Which fields of an entry name other entries (SPEC §3.1–§3.2): the one table every tool that
 * renames ids reads (a merge re-minting a colliding id, and whatever comes next). Typed
 * `satisfies` a record over every built-in entry type, so a new entry type does not compile
 * until it says what it references; each listed field must be a string-valued field of that
 * type. An entry of an unknown type (SPEC §2.6) is known to reference only its `parentId`.
 */

import type { SessionEntry, SessionEntryType } from "./types.js";

/** The entry of wire type `K`. */
type EntryOf<K extends SessionEntryType> = Extract<SessionEntry, { type: K }>;

/** Fields of entry type `K` whose value may be an entry id (a string, possibly optional). */
type IdField<K extends SessionEntryType> = {
  [F in keyof EntryOf<K>]-?: string extends NonNullable<EntryOf<K>[F]> ? F : never;
}[keyof EntryOf<K>];

/**
 * The fields each built-in entry type uses to point at another entry, besides `parentId` (which
 * every entry has). `branch_summary.fromId` may be the literal `"root"` (no entry); a rename
 * only ever replaces a value that is an id it re-minted, so such values stay as they are.
 */
export const ENTRY_REFERENCES = Object.freeze({
  message: [],
  thinking_level_change: [],
  model_change: [],
  // The first entry kept before the compaction; its own id means "keep none".
  compaction: ["firstKeptEntryId"],
  // The leaf that was active before the branch, whose path the summary describes.
  branch_summary: ["fromId"],
  custom: [],
  custom_message: [],
  // The labelled entry.
  label: ["targetId"],
  session_info: [],
  usage: [],
  // The entry whose context contribution is replaced.
  context_edit: ["targetId"],
} as const satisfies { readonly [K in SessionEntryType]: readonly IdField<K>[] });

/** The field every entry uses to point at its parent (SPEC §3.1). */
export const PARENT_REFERENCE = "parentId";

/**
 * Every field of an entry of wire type `type` that refers to another entry: `parentId`, then
 * the type's own (none for an unknown type).
 */
export function referenceFieldsOf(type: unknown): readonly string[] {
  const own =
    typeof type === "string" && Object.hasOwn(ENTRY_REFERENCES, type)
      ? ENTRY_REFERENCES[type as SessionEntryType]
      : [];
  return [PARENT_REFERENCE, ...own];
}

/**
 * A copy of `record` with every reference field (per `fields`, by default
 * {@link referenceFieldsOf}: the built-in types'; an `entryTypeRegistry`'s adds a plugin's)
 * whose value is a string that `rename` maps replaced by the new id; `record` itself when none
 * changes.
 */
export function renameReferences<T extends Record<string, unknown>>(
  record: T,
  rename: (id: string) => string | undefined,
  fields: (type: unknown) => readonly string[] = referenceFieldsOf,
): T {
  let out: Record<string, unknown> | undefined;
  for (const field of fields(record.type)) {
    const value = record[field];
    if (typeof value !== "string") continue;
    const next = rename(value);
    if (next === undefined || next === value) continue;
    out ??= { ...record };
    out[field] = next;
  }
  return (out as T | undefined) ?? record;
}
