/**
 * DESIGN rule 4: a plugin's entry type registers through the same mechanism as a built-in. The
 * built-ins' definitions are made by `defineEntryType`, as a plugin's are; a registry of both
 * derives the codec and the reference fields from the definitions alone, and for the
 * built-ins it agrees with core's own codec and reference table on every fixture entry.
 */
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import {
  defineEntryType,
  ENTRY_TYPES,
  type EntryTypeDefinition,
  entryCodec,
  entryTypeRegistry,
} from "../../src/index.js";
import {
  decodeWith,
  ENTRY_CODECS,
  ENTRY_REFERENCES,
  referenceFieldsOf,
  SessionEntryCodec,
} from "../core-parts.js";
import { base, decoded, ENTRIES, issues } from "./fixtures.js";

/** A plugin's own wire type: a pin on another entry. */
const pinType = defineEntryType({
  type: "pin",
  codec: t.intersection([
    t.type({ type: t.literal("pin"), id: t.string, parentId: t.union([t.string, t.null]) }),
    t.type({ timestamp: t.string, targetId: t.string }),
  ]),
  references: ["targetId"],
  searchText: null,
  role: "none",
});

describe("entry type definitions", () => {
  it("built-ins are made by defineEntryType from their codec and references, frozen", () => {
    for (const [type, definition] of Object.entries(ENTRY_TYPES)) {
      const { searchText, role } = definition as EntryTypeDefinition<string>;
      const codec = ENTRY_CODECS[type as keyof typeof ENTRY_CODECS];
      const references = ENTRY_REFERENCES[type as keyof typeof ENTRY_REFERENCES];
      expect(definition).toEqual(defineEntryType({ type, codec, references, searchText, role }));
      expect(Object.isFrozen(definition)).toBe(true);
      expect(Object.isFrozen(definition.references)).toBe(true);
    }
    expect(Object.isFrozen(pinType)).toBe(true);
  });

  it("a bad definition is refused with a clear message", () => {
    const good = {
      type: "x",
      codec: t.unknown as never,
      references: [],
      searchText: null,
      role: "none",
    };
    const bad: [object, string][] = [
      [{ ...good, type: "" }, "wire name must be a non-empty string"],
      [{ ...good, codec: {} }, 'entry type "x": codec must be an io-ts codec'],
      [{ ...good, references: [3] }, "references must be field names"],
      [{ ...good, references: ["parentId"] }, "parentId is every entry's reference"],
      [{ ...good, searchText: "note" }, 'searchText must be "message", "content" or null'],
      [{ ...good, role: "tree" }, "role must be one of tree-state, context-setting, none"],
    ];
    for (const [definition, message] of bad) {
      expect(() => defineEntryType(definition as never)).toThrow(TypeError);
      expect(() => defineEntryType(definition as never)).toThrow(message);
    }
  });

  it("the compiler holds references to string fields of what the codec decodes", () => {
    const codec = entryCodec("pin", { targetId: t.string, weight: t.number }, { via: t.string });
    const facts = { type: "pin", codec, searchText: null, role: "none" } as const;
    expect(defineEntryType({ ...facts, references: ["targetId", "via"] }).references).toEqual([
      "targetId",
      "via",
    ]);
    // Run time can only see strings; the field names are the compiler's to check.
    // @ts-expect-error a misspelt field
    expect(defineEntryType({ ...facts, references: ["targetID"] }).references).toHaveLength(1);
    // @ts-expect-error a number field never holds an id
    expect(defineEntryType({ ...facts, references: ["weight"] }).references).toHaveLength(1);
  });
});

describe("the entry type registry", () => {
  it("of the built-ins alone agrees with core's codec and reference table", () => {
    const registry = entryTypeRegistry();
    expect([...registry.definitions.keys()]).toEqual(Object.keys(ENTRY_TYPES));
    const unknown = { type: "other", ...base, extra: 1 };
    for (const entry of [...Object.values(ENTRIES), unknown, { type: "label", ...base }]) {
      expect(decodeWith(registry.codec, entry)).toEqual(decodeWith(SessionEntryCodec, entry));
      expect(registry.referenceFieldsOf(entry.type)).toEqual(referenceFieldsOf(entry.type));
    }
  });

  it("adds a plugin's type: its codec checks it, its references count, the rest stays open", () => {
    const registry = entryTypeRegistry([pinType]);
    const pin = { type: "pin", ...base, targetId: "x" };
    expect(decoded(decodeWith(registry.codec, pin))).toBe(pin);
    expect(issues(decodeWith(registry.codec, { ...pin, targetId: 1 })).map((i) => i.path)).toEqual([
      "targetId",
    ]);
    const other = { type: "other", ...base };
    expect(decoded(decodeWith(registry.codec, other))).toBe(other);
    expect(decoded(decodeWith(registry.codec, ENTRIES.label))).toBe(ENTRIES.label);
    expect(registry.referenceFieldsOf("pin")).toEqual(["parentId", "targetId"]);
    expect(registry.referenceFieldsOf("label")).toEqual(["parentId", "targetId"]);
    expect(registry.referenceFieldsOf("other")).toEqual(["parentId"]);
    expect(registry.definitionOf("pin")).toBe(pinType);
    expect(registry.definitionOf("message")).toBe(ENTRY_TYPES.message);
    expect(registry.definitionOf(7)).toBeUndefined();
    // Without the plugin, a pin is an unknown type: kept as it is, referencing its parent only.
    expect(decoded(decodeWith(entryTypeRegistry().codec, { ...pin, targetId: 1 }))).toEqual({
      ...pin,
      targetId: 1,
    });
  });

  it("refuses a plugin's type that takes a built-in's or another's name, or was not defined", () => {
    const label = defineEntryType({ ...pinType, type: "label" });
    expect(() => entryTypeRegistry([label])).toThrow(
      'entry type "label" is built in: a plugin\'s type cannot take its name',
    );
    expect(() => entryTypeRegistry([pinType, pinType])).toThrow(
      'entry type "pin" is already another',
    );
    expect(() => entryTypeRegistry([{ ...pinType }])).toThrow("declare it with defineEntryType");
    // Frozen is not enough: only what defineEntryType checked is taken.
    const frozen = Object.freeze({ ...pinType, references: Object.freeze(["anything"]) });
    expect(() => entryTypeRegistry([frozen])).toThrow("declare it with defineEntryType");
  });
});
