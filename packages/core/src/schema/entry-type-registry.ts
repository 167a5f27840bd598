/**
 * The entry types a reader knows: the built-ins' definitions ({@link ENTRY_TYPES}) and any a
 * plugin declares with {@link defineEntryType}, in one registry that derives what every reader
 * needs from the definitions alone — the codec that checks each known type (an unknown one is
 * kept open, SPEC §2.6), and the fields that point at other entries. A plugin's type thus
 * registers exactly as a built-in one does (DESIGN rule 4): one definition, nothing beside it.
 */

import type * as t from "io-ts";
import type { IdCodec } from "./codecs/combinators.js";
import { createEntryCodec, type SessionEntry, type SessionEntryBase } from "./codecs/entries.js";
import { PARENT_REFERENCE } from "./entry-references.js";
import {
  ENTRY_TYPE_NAMES,
  ENTRY_TYPES,
  type EntryTypeDefinition,
  ownEntryTypeProblem,
} from "./entry-types.js";

/** Any entry type's definition, a built-in's or a plugin's. */
export type AnyEntryTypeDefinition = EntryTypeDefinition<
  string,
  t.Decoder<unknown, SessionEntryBase>,
  readonly string[]
>;

/** The entry a definition's codec decodes (its type, the common fields and its own). */
export type EntryOfDefinition<D> = D extends { readonly codec: t.Decoder<unknown, infer A> }
  ? A
  : never;

/**
 * What an author gives to append an entry of definition `D`: its own fields, without the
 * `type`, `id`, `parentId` and `timestamp` the append fills in.
 */
export type DefinedEntryFields<D> = Omit<
  EntryOfDefinition<D>,
  "type" | "id" | "parentId" | "timestamp"
>;

/** The built-in types and a plugin's, and what is derived from their definitions. */
export interface EntryTypeRegistry<E = SessionEntry> {
  /** Every definition by wire name: the built-ins' first, in SPEC §3.2 order. */
  readonly definitions: ReadonlyMap<string, AnyEntryTypeDefinition>;
  /**
   * Checks an entry of any known type; one of an unknown type is checked for the fields every
   * entry has and keeps its own.
   */
  readonly codec: IdCodec<E | SessionEntryBase>;
  /** The definition of `type`, or `undefined` for a type nobody defined. */
  definitionOf(type: unknown): AnyEntryTypeDefinition | undefined;
  /** `parentId`, then the type's own reference fields (none for an unknown type). */
  referenceFieldsOf(type: unknown): readonly string[];
}

/**
 * The registry of the built-in types and `plugins` (each made by {@link defineEntryType}).
 * Throws a `TypeError` when a plugin's type takes a built-in's wire name or another's.
 */
export function entryTypeRegistry<const P extends readonly AnyEntryTypeDefinition[] = []>(
  plugins: P = [] as unknown as P,
): EntryTypeRegistry<
  SessionEntry | (P[number] extends { readonly codec: t.Decoder<unknown, infer A> } ? A : never)
> {
  const definitions = new Map<string, AnyEntryTypeDefinition>(
    ENTRY_TYPE_NAMES.map((type) => [type, ENTRY_TYPES[type] as AnyEntryTypeDefinition]),
  );
  for (const definition of plugins) {
    // The one rule for a type of one's own (a checked definition, not a built-in's name), then
    // a name another plugin's type took.
    const problem = ownEntryTypeProblem(definition, "a plugin's type cannot take its name");
    if (problem !== undefined) throw new TypeError(problem);
    if (definitions.has(definition.type)) {
      throw new TypeError(`entry type "${definition.type}" is already another type's name`);
    }
    definitions.set(definition.type, definition);
  }
  const codecs = Object.fromEntries([...definitions].map(([type, d]) => [type, d.codec]));
  const codec = createEntryCodec(codecs);
  const definitionOf = (type: unknown) =>
    typeof type === "string" ? definitions.get(type) : undefined;
  const registry: EntryTypeRegistry<SessionEntryBase> = Object.freeze({
    definitions,
    codec,
    definitionOf,
    referenceFieldsOf: (type: unknown) => [
      PARENT_REFERENCE,
      ...(definitionOf(type)?.references ?? []),
    ],
  });
  // The entries the definitions' codecs decode, as the signature names them: a map of codecs
  // built at run time loses which type has which codec.
  return registry as unknown as ReturnType<typeof entryTypeRegistry<P>>;
}
