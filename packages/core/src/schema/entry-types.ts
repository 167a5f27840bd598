/**
 * The one definition of each built-in entry type (SPEC §3.2) besides its codec: the facts that
 * tools outside the codec need — which fields point at other entries, which field holds its
 * searchable text, and which state it feeds (the tree's labels and name, a context's model and
 * thinking settings). Typed `satisfies` a record over every built-in type, so adding a codec to
 * `ENTRY_CODECS` does not compile until the type is defined here; every per-type table in the
 * other packages is keyed by {@link SessionEntryType} through {@link EntryTypeTable} for the
 * same reason. A plugin's custom type (`createEntryCodec({ ...ENTRY_CODECS, x: codec })`) is an
 * unknown type here: it references only its parent, has no searchable text and feeds no state.
 */

import { ENTRY_CODECS } from "./codecs/entries.js";
import { ENTRY_REFERENCES } from "./entry-references.js";
import type { SessionEntryType } from "./types.js";

/**
 * A table with one value for every built-in entry type: what every per-type switch elsewhere is
 * written as (`satisfies EntryTypeTable<…>`), so a new type fails to compile there too.
 */
export type EntryTypeTable<T> = { readonly [K in SessionEntryType]: T };

/** Which state, besides the log itself, an entry of a type feeds. */
export type EntryTypeRole =
  /** Folded into the tree's state (labels, session name): read for every tree. */
  | "tree-state"
  /** Sets a context's model or thinking level (found walking back from a context's leaf). */
  | "context-setting"
  /** Nothing beyond its own place in the log. */
  | "none";

/** The definition of one built-in entry type `K`. */
export interface EntryTypeDefinition<K extends SessionEntryType> {
  /** Its wire name, the `type` field. */
  readonly type: K;
  /** Its codec in `ENTRY_CODECS`. */
  readonly codec: (typeof ENTRY_CODECS)[K];
  /** The fields besides `parentId` that name another entry ({@link ENTRY_REFERENCES}). */
  readonly references: (typeof ENTRY_REFERENCES)[K];
  /**
   * The field holding the text search looks in: `message` (a message, whose role decides),
   * `content` (user-style content), or none.
   */
  readonly searchText: "message" | "content" | null;
  /** The state it feeds besides the log. */
  readonly role: EntryTypeRole;
}

/** One definition per built-in type, in the order the codecs are listed. */
function define<K extends SessionEntryType>(
  type: K,
  facts: Pick<EntryTypeDefinition<K>, "searchText" | "role">,
): EntryTypeDefinition<K> {
  return Object.freeze({
    type,
    codec: ENTRY_CODECS[type],
    references: ENTRY_REFERENCES[type],
    ...facts,
  });
}

/** Every built-in entry type's definition, by wire name (SPEC §3.2 order). */
export const ENTRY_TYPES = Object.freeze({
  message: define("message", { searchText: "message", role: "none" }),
  thinking_level_change: define("thinking_level_change", {
    searchText: null,
    role: "context-setting",
  }),
  model_change: define("model_change", { searchText: null, role: "context-setting" }),
  compaction: define("compaction", { searchText: null, role: "none" }),
  branch_summary: define("branch_summary", { searchText: null, role: "none" }),
  custom: define("custom", { searchText: null, role: "none" }),
  custom_message: define("custom_message", { searchText: "content", role: "none" }),
  label: define("label", { searchText: null, role: "tree-state" }),
  session_info: define("session_info", { searchText: null, role: "tree-state" }),
  usage: define("usage", { searchText: null, role: "none" }),
  context_edit: define("context_edit", { searchText: null, role: "none" }),
} as const satisfies { readonly [K in SessionEntryType]: EntryTypeDefinition<K> });

/** The wire names of the built-in entry types, in SPEC §3.2 order. */
export const ENTRY_TYPE_NAMES: readonly SessionEntryType[] = Object.freeze(
  Object.keys(ENTRY_TYPES) as SessionEntryType[],
);

/** The built-in types whose definition has `role`. */
export function entryTypesWithRole(role: EntryTypeRole): readonly SessionEntryType[] {
  return ENTRY_TYPE_NAMES.filter((type) => ENTRY_TYPES[type].role === role);
}

/** Whether `type` is the wire name of a built-in entry type (a plugin's or a newer one is not). */
export function isBuiltInEntryType(type: unknown): type is SessionEntryType {
  return typeof type === "string" && Object.hasOwn(ENTRY_TYPES, type);
}
