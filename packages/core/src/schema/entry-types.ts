/**
 * The one definition of each built-in entry type (SPEC §3.2) besides its codec: the facts that
 * tools outside the codec need — which fields point at other entries, which field holds its
 * searchable text, and which state it feeds (the tree's labels and name, a context's model and
 * thinking settings). Typed `satisfies` a record over every built-in type, so adding a codec to
 * `ENTRY_CODECS` does not compile until the type is defined here; every per-type table in the
 * other packages is keyed by {@link SessionEntryType} through {@link EntryTypeTable} for the
 * same reason. A plugin's own wire type is declared the same way ({@link defineEntryType}) and
 * joins the built-ins in an {@link entryTypeRegistry} (`entry-type-registry.ts`), which gives
 * the codec and reference fields of them all; to a table keyed by built-in types it stays an
 * unknown type, as a newer type is.
 */

import type * as t from "io-ts";
import { ENTRY_CODECS, type SessionEntryBase } from "./codecs/entries.js";
import { ENTRY_REFERENCES } from "./entry-references.js";
import { HEADER_TYPE } from "./header-type.js";
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

/**
 * The definition of one entry type, a built-in's or a plugin's: the one shape both register
 * through ({@link defineEntryType}). `K` is its wire name, `C` its codec, `R` its reference
 * fields; a built-in's are typed exactly (see {@link ENTRY_TYPES}).
 */
export interface EntryTypeDefinition<
  K extends string = SessionEntryType,
  C extends t.Decoder<unknown, SessionEntryBase> = K extends SessionEntryType
    ? (typeof ENTRY_CODECS)[K]
    : t.Decoder<unknown, SessionEntryBase>,
  R extends readonly string[] = K extends SessionEntryType
    ? (typeof ENTRY_REFERENCES)[K]
    : readonly string[],
> {
  /** Its wire name, the `type` field. */
  readonly type: K;
  /** Its codec: checks an entry of this type (a built-in's is its codec in `ENTRY_CODECS`). */
  readonly codec: C;
  /** The fields besides `parentId` that name another entry ({@link ENTRY_REFERENCES}). */
  readonly references: R;
  /**
   * The field holding the text search looks in: `message` (a message, whose role decides),
   * `content` (user-style content), or none.
   */
  readonly searchText: "message" | "content" | null;
  /** The state it feeds besides the log. */
  readonly role: EntryTypeRole;
}

/**
 * The fields of the entries codec `C` decodes that may hold an entry id (string-valued): what
 * a definition's `references` may name, so a misspelt or non-string field does not compile.
 */
export type ReferenceFieldOf<C> =
  C extends t.Decoder<unknown, infer A>
    ? { [F in keyof A]-?: string extends NonNullable<A[F]> ? F : never }[keyof A] & string
    : never;

const ROLES: readonly EntryTypeRole[] = ["tree-state", "context-setting", "none"];

/** Where the process keeps the set of checked definitions (see `DEFINED`). */
const DEFINED_KEY = Symbol.for("@pi-sessions/core:defined-entry-types");

/**
 * The definitions {@link defineEntryType} checked: a registry takes no other. One set for every
 * copy of this package loaded in the process, not one per copy: a plugin module imports core
 * from its own project while the bundled CLI carries its own copy, and a definition made by
 * either must be recognised by both (a per-copy set refused every plugin the CLI loaded).
 */
const shared = globalThis as { [DEFINED_KEY]?: WeakSet<object> };
shared[DEFINED_KEY] ??= new WeakSet<object>();
const DEFINED: WeakSet<object> = shared[DEFINED_KEY];

/** Whether `definition` was made by {@link defineEntryType} (checked and frozen). */
export function isDefinedEntryType(definition: object): boolean {
  return DEFINED.has(definition);
}

/**
 * Defines an entry type: the one way a built-in's and a plugin's type are declared. The
 * compiler holds `references` to string fields of what the codec decodes. Checks the
 * definition (a non-empty wire name, an io-ts codec, string reference fields other than
 * `parentId`, a known search field and role) and freezes it; a plugin's types then join the
 * built-ins in an {@link entryTypeRegistry}. Throws a `TypeError` for a bad definition.
 */
export function defineEntryType<
  const K extends string,
  C extends t.Decoder<unknown, SessionEntryBase>,
  const R extends readonly ReferenceFieldOf<C>[],
>(definition: EntryTypeDefinition<K, C, R>): EntryTypeDefinition<K, C, R> {
  const { type, codec, references, searchText, role } = definition;
  const name = `entry type ${JSON.stringify(type)}`;
  if (typeof type !== "string" || type === "") {
    throw new TypeError("entry type: its wire name must be a non-empty string");
  }
  if (type === HEADER_TYPE) {
    throw new TypeError(`${name} is the header's type: a line of it is read as a header`);
  }
  if (typeof (codec as { decode?: unknown } | null)?.decode !== "function") {
    throw new TypeError(`${name}: codec must be an io-ts codec`);
  }
  if (!Array.isArray(references) || references.some((f) => typeof f !== "string" || f === "")) {
    throw new TypeError(`${name}: references must be field names`);
  }
  if (references.includes("parentId")) {
    throw new TypeError(`${name}: parentId is every entry's reference; list only the others`);
  }
  if (searchText !== null && searchText !== "message" && searchText !== "content") {
    throw new TypeError(`${name}: searchText must be "message", "content" or null`);
  }
  if (!ROLES.includes(role))
    throw new TypeError(`${name}: role must be one of ${ROLES.join(", ")}`);
  const checked = Object.freeze({
    type,
    codec,
    references: Object.freeze([...references]) as R,
    searchText,
    role,
  });
  DEFINED.add(checked);
  return checked;
}

/** One definition per built-in type, in the order the codecs are listed. */
function define<K extends SessionEntryType>(
  type: K,
  facts: Pick<EntryTypeDefinition<K>, "searchText" | "role">,
): EntryTypeDefinition<K> {
  return defineEntryType({
    type,
    codec: ENTRY_CODECS[type],
    // Checked against each type's string fields by ENTRY_REFERENCES' own `satisfies`; a
    // generic `K` cannot resolve the field names here.
    references: ENTRY_REFERENCES[type] as readonly ReferenceFieldOf<(typeof ENTRY_CODECS)[K]>[],
    ...facts,
  }) as EntryTypeDefinition<K>;
}

/** Every built-in entry type's definition, by wire name (SPEC §3.2 order). */
export const ENTRY_TYPES: { readonly [K in SessionEntryType]: EntryTypeDefinition<K> } =
  Object.freeze({
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
  });

/** The wire names of the built-in entry types, in SPEC §3.2 order. */
export const ENTRY_TYPE_NAMES: readonly SessionEntryType[] = Object.freeze(
  Object.keys(ENTRY_TYPES) as SessionEntryType[],
);

/** The built-in types whose definition has `role`. */
export function entryTypesWithRole(role: EntryTypeRole): readonly SessionEntryType[] {
  return ENTRY_TYPE_NAMES.filter((type) => ENTRY_TYPES[type].role === role);
}

/**
 * Why `definition` cannot be an entry type of one's own (a plugin's), or `undefined` when it can:
 * it must be made by {@link defineEntryType} (which refuses the header's type) and must not take
 * a built-in type's name. The one rule every path that accepts such a type applies (core's
 * append and registry, the plugins' wire types, their registry and renderers); `builtInHint`
 * is added to the reason when the definition is a checked one of a built-in's name (what the
 * caller offers instead: its own append, the default rendering).
 */
export function ownEntryTypeProblem(definition: unknown, builtInHint?: string): string | undefined {
  const type = (definition as { type?: unknown } | null)?.type;
  const name = `entry type ${JSON.stringify(String(type))}`;
  if (typeof definition !== "object" || definition === null || !isDefinedEntryType(definition)) {
    return `${name}: declare it with defineEntryType`;
  }
  if (isBuiltInEntryType(type))
    return `${name} is built in${builtInHint ? `: ${builtInHint}` : ""}`;
  return undefined;
}

/** Whether `type` is the wire name of a built-in entry type (a plugin's or a newer one is not). */
export function isBuiltInEntryType(type: unknown): type is SessionEntryType {
  return typeof type === "string" && Object.hasOwn(ENTRY_TYPES, type);
}
