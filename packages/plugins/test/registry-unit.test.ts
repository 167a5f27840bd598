import { defineProjection } from "@pi-sessions/core";
import {
  createRegistry,
  customEntryType,
  definePlugin,
  PluginDefinitionError,
  PluginRegistry,
  PluginRegistryError,
  renderEntry,
} from "@pi-sessions/plugins";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { note, tally, tallyPlugin } from "./plugin-fixtures.js";

const other = definePlugin({
  name: "other",
  entryTypes: [customEntryType({ customType: "bookmark", data: t.string })],
});

describe("definePlugin", () => {
  it("fills every part and freezes the result", () => {
    const p = definePlugin({ name: "bare" });
    expect(p).toMatchObject({
      name: "bare",
      entryTypes: [],
      messageTypes: [],
      branchState: undefined,
      projections: [],
      entryRenderers: {},
      messageRenderers: {},
      hooks: {},
    });
    expect(Object.isFrozen(p)).toBe(true);
    expect(Object.isFrozen(tallyPlugin.entryTypes)).toBe(true);
  });

  it("turns typed renders into renderers of the registry", () => {
    expect(Object.keys(tallyPlugin.entryRenderers)).toEqual(["tally"]);
    expect(Object.keys(tallyPlugin.messageRenderers)).toEqual(["note"]);
    const renderers = createRegistry([tallyPlugin]).renderers();
    const entry = {
      type: "custom",
      id: "a",
      parentId: null,
      timestamp: "2025-01-01T00:00:00.000Z",
      customType: "tally",
      data: { n: 4 },
    };
    expect(renderEntry(entry, { renderers })).toContain("tally 4 (legacy)");
  });

  it("refuses mistakes with PluginDefinitionError", () => {
    const proj = defineProjection({ name: "p", init: () => 0, apply: (n: number) => n });
    const bad: Array<[() => unknown, string]> = [
      [() => definePlugin({ name: "" }), "plugin name must be a non-empty string"],
      [
        () => definePlugin({ name: "a", entryTypes: [tally, tally] }),
        'plugin "a": entry customType "tally" is declared twice',
      ],
      [
        () => definePlugin({ name: "a", projections: [proj, proj] }),
        'projection "p" is declared twice',
      ],
      [
        () => definePlugin({ name: "a", hooks: { nope: () => {} } as never }),
        '"nope" is not a bus event',
      ],
      [
        () => definePlugin({ name: "a", entryTypes: [note] as never }),
        "entryTypes takes customEntryType(...) values",
      ],
      [
        () => definePlugin({ name: "a", entryTypes: [tally], entryRenderers: { tally: () => "" } }),
        'entry renderer "tally" is given twice',
      ],
      [
        () => definePlugin({ name: "a", branchState: { init: () => 0 } as never }),
        "branchState needs init() and apply()",
      ],
    ];
    for (const [make, message] of bad) {
      expect(make).toThrow(PluginDefinitionError);
      expect(make).toThrow(message);
    }
  });
});

describe("PluginRegistry", () => {
  it("looks types, renderers and projections up by key", () => {
    const r = createRegistry([tallyPlugin, other]);
    expect(r.names).toEqual(["tally", "other"]);
    expect(r.entryType("tally")?.type).toBe(tally);
    expect(r.entryType("tally")?.plugin).toBe(tallyPlugin);
    expect(r.messageType("note")?.type).toBe(note);
    expect(r.entryType("note")).toBeUndefined();
    expect(r.entryType("bookmark")?.plugin.name).toBe("other");
    expect(r.projections().map((p) => p.name)).toEqual(["tally-count"]);
    expect(r.plugin("other")).toBe(other);
    expect(r.entryRenderer("tally")).toBe(tallyPlugin.entryRenderers.tally);
  });

  it("refuses a duplicate name or customType, naming the owner", () => {
    const r = createRegistry([tallyPlugin]);
    const sameName = definePlugin({ name: "tally" });
    const sameType = definePlugin({ name: "copycat", entryTypes: [tally] });
    const dup = r.tryRegister(sameName);
    expect(E.isLeft(dup) && dup.left.code).toBe("duplicate-plugin");
    expect(() => r.register(sameType)).toThrow(PluginRegistryError);
    expect(() => r.register(sameType)).toThrow(
      'Plugin "copycat": custom entry type "tally" is already registered by plugin "tally" (pass { override: true } to replace it)',
    );
    expect(() => r.register({ name: "fake" } as never)).toThrow("Not a plugin");
  });

  it("override replaces a same-name plugin and takes contested keys; unregister gives them back", () => {
    const r = createRegistry([tallyPlugin]);
    const copycat = definePlugin({ name: "copycat", entryTypes: [tally] });
    const r2 = r.register(copycat, { override: true });
    expect(r2.entryType("tally")?.plugin.name).toBe("copycat");
    expect(r.entryType("tally")?.plugin.name).toBe("tally");
    expect(r2.unregister("copycat").entryType("tally")?.plugin.name).toBe("tally");
    const renamed = definePlugin({ name: "tally" });
    const r3 = r.register(renamed, { override: true });
    expect(r3.names).toEqual(["tally"]);
    expect(r3.entryType("tally")).toBeUndefined();
    expect(r.unregister("nope")).toBe(r);
  });

  it("is immutable", () => {
    const r = createRegistry([tallyPlugin]);
    expect(Object.isFrozen(r)).toBe(true);
    expect(Object.isFrozen(r.plugins)).toBe(true);
    expect(PluginRegistry.empty().names).toEqual([]);
  });
});
