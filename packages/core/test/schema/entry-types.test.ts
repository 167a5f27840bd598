/**
 * The entry-type definitions agree with what the engine does: one definition per codec, in the
 * codecs' order; the types they call tree state are exactly the ones the built-in label and
 * name folds read; the references are the merge's table.
 */

import {
  ENTRY_REFERENCES,
  ENTRY_TYPE_NAMES,
  ENTRY_TYPES,
  entryTypesWithRole,
  isBuiltInEntryType,
} from "@pi-sessions/core";
import { ENTRY_CODECS, labelsProjection, sessionNameProjection } from "@pi-sessions/core/internal";
import { describe, expect, it } from "vitest";

describe("entry-type definitions", () => {
  it("define every codec once, in the codecs' order, under its own wire name", () => {
    expect(ENTRY_TYPE_NAMES).toEqual(Object.keys(ENTRY_CODECS));
    for (const name of ENTRY_TYPE_NAMES) {
      const def = ENTRY_TYPES[name];
      expect(def.type).toBe(name);
      expect(def.codec).toBe(ENTRY_CODECS[name]);
      expect(def.references).toEqual(ENTRY_REFERENCES[name]);
    }
  });

  it("call tree state exactly the types the built-in label and name folds read", () => {
    const folded = [...(labelsProjection.types ?? []), ...(sessionNameProjection.types ?? [])];
    expect([...entryTypesWithRole("tree-state")].sort()).toEqual(folded.sort());
  });

  it("name the settings a context reads and where search text lives", () => {
    expect(entryTypesWithRole("context-setting")).toEqual([
      "thinking_level_change",
      "model_change",
    ]);
    const searched = ENTRY_TYPE_NAMES.filter((n) => ENTRY_TYPES[n].searchText !== null);
    expect(searched).toEqual(["message", "custom_message"]);
  });

  it("know only the built-in wire names (a plugin's or a newer type is not built in)", () => {
    expect(ENTRY_TYPE_NAMES.every(isBuiltInEntryType)).toBe(true);
    for (const other of ["bookmark", "toString", "__proto__", "", 3, null, undefined]) {
      expect(isBuiltInEntryType(other)).toBe(false);
    }
  });
});
