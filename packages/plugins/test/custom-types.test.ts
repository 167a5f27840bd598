import type { CustomEntry, CustomMessageEntry } from "@pi-sessions/core";
import {
  customEntryType,
  customMessageType,
  decodeCustomEntry,
  decodePayload,
  PluginDefinitionError,
  stampVersion,
  storedVersionOf,
} from "@pi-sessions/plugins";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { note, tally } from "./plugin-fixtures.js";

const problemOf = (r: E.Either<{ kind: string; message: string }, unknown>) =>
  E.isLeft(r) ? r.left : undefined;

describe("custom type definitions", () => {
  it("are frozen, default to version 1 and keep the codec", () => {
    const simple = customEntryType({ customType: "x", data: t.string });
    expect(simple).toMatchObject({ kind: "custom", customType: "x", version: 1, upcasters: {} });
    expect(Object.isFrozen(simple)).toBe(true);
    expect(note.kind).toBe("custom_message");
  });

  it("refuse bad definitions with a clear message", () => {
    const bad: Array<[() => unknown, string]> = [
      [() => customEntryType({ customType: "", data: t.string }), "customType must be a non-empty"],
      [
        () => customEntryType({ customType: "a", data: {} as t.Decoder<unknown, unknown> }),
        'custom entry type "a": codec must be an io-ts decoder',
      ],
      [() => customEntryType({ customType: "a", data: t.string, version: 0 }), "version must be"],
      [() => customEntryType({ customType: "a", data: t.string, version: 1.5 }), "version must be"],
      [
        () =>
          customEntryType({
            customType: "a",
            data: t.string,
            version: 3,
            upcasters: { 1: String },
          }),
        "missing the upcaster from v2 to v3",
      ],
      [
        () =>
          customEntryType({
            customType: "a",
            data: t.string,
            version: 2,
            upcasters: { 1: String, 2: String },
          }),
        'upcaster "2" does not upgrade a version below v2',
      ],
      [
        () =>
          customMessageType({
            customType: "m",
            details: t.unknown,
            content: 5 as unknown as t.Decoder<unknown, unknown>,
          }),
        "content must be an io-ts decoder",
      ],
    ];
    for (const [make, message] of bad) {
      expect(make).toThrow(PluginDefinitionError);
      expect(make).toThrow(message);
    }
  });
});

describe("versions and upcasting", () => {
  it("reads the version from data.v / details.v, 1 when absent", () => {
    expect(storedVersionOf(tally, { n: 1 })).toEqual(E.right(1));
    expect(storedVersionOf(tally, { v: 2, amount: 1, tag: "a" })).toEqual(E.right(2));
    expect(storedVersionOf(tally, "not an object")).toEqual(E.right(1));
    expect(storedVersionOf(note, { content: "x", details: { v: 4 } })).toEqual(E.right(4));
    const bad = problemOf(storedVersionOf(tally, { v: "2" }));
    expect(bad).toMatchObject({ kind: "bad-version" });
    expect(bad?.message).toContain("data.v");
  });

  it("upcasts v1 to v2 on read and decodes the current version as is", () => {
    expect(decodePayload(tally, { n: 5 })).toEqual(
      E.right({ value: { amount: 5, tag: "legacy" }, storedVersion: 1 }),
    );
    const v2 = { v: 2, amount: 3, tag: "t" };
    const r = decodePayload(tally, v2);
    expect(r).toEqual(E.right({ value: v2, storedVersion: 2 }));
  });

  it("reports newer versions, throwing upcasters and codec mismatches with paths", () => {
    expect(problemOf(decodePayload(tally, { v: 3, amount: 1, tag: "x" }))).toMatchObject({
      kind: "newer-version",
      message: expect.stringContaining("written by a newer version (v3)"),
    });
    expect(problemOf(decodePayload(tally, { n: "explode" }))).toMatchObject({
      kind: "upcast-failed",
      message: expect.stringContaining("upcast from v1 failed: cannot upcast an explosion"),
    });
    const invalid = problemOf(decodePayload(tally, { v: 2, amount: "3", tag: 4 }));
    expect(invalid?.kind).toBe("invalid-data");
    expect(invalid?.message).toBe(
      'custom entry "tally" v2: data.amount: expected number, got "3"; data.tag: expected string, got number 4',
    );
    const msg = problemOf(decodePayload(note, { content: [{ type: "text" }], details: {} }));
    expect(msg?.message).toContain("content");
    expect(msg?.message).toContain("details.author: missing; expected string");
  });

  it("stamps the current version on write, replacing a stale v, and refuses non-objects", () => {
    expect(stampVersion(tally, { amount: 1, tag: "a", v: 1 })).toEqual({
      v: 2,
      amount: 1,
      tag: "a",
    });
    expect(Object.keys(stampVersion(tally, { amount: 1, tag: "a" }) as object)[0]).toBe("v");
    expect(() => stampVersion(tally, 7)).toThrow('its data must be an object to carry "v"');
    const unversioned = customEntryType({ customType: "u", data: t.number });
    expect(stampVersion(unversioned, 7)).toBe(7);
    const versionedMsg = customMessageType({
      customType: "vm",
      details: t.type({ a: t.number }),
      version: 2,
      upcasters: { 1: (p) => p },
    });
    expect(stampVersion(versionedMsg, { content: "c", details: { a: 1 } })).toEqual({
      content: "c",
      details: { v: 2, a: 1 },
    });
  });

  it("decodes each stored entry once (memoised per type and entry object)", () => {
    let decodes = 0;
    const counting = customEntryType({
      customType: "c",
      data: new t.Type<number, number, unknown>(
        "Counted",
        (u): u is number => typeof u === "number",
        (u, c) => {
          decodes++;
          return typeof u === "number" ? t.success(u) : t.failure(u, c);
        },
        (a) => a,
      ),
    });
    const entry: CustomEntry = {
      type: "custom",
      id: "a",
      parentId: null,
      timestamp: "t",
      customType: "c",
      data: 4,
    };
    expect(decodeCustomEntry(counting, entry)).toEqual(decodeCustomEntry(counting, entry));
    expect(decodes).toBe(1);
    decodeCustomEntry(counting, { ...entry });
    expect(decodes).toBe(2);
  });

  it("a custom_message entry is read as { content, details }", () => {
    const entry: CustomMessageEntry = {
      type: "custom_message",
      id: "m",
      parentId: null,
      timestamp: "t",
      customType: "note",
      content: "hello",
      display: true,
      details: { author: "ana" },
    };
    expect(decodeCustomEntry(note, entry)).toEqual(
      E.right({ value: { content: "hello", details: { author: "ana" } }, storedVersion: 1 }),
    );
  });
});
