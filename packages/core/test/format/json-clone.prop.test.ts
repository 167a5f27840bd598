import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonClone } from "../../src/format/json-clone.js";

/** What the fast copy must always equal. */
const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Values JSON treats specially, mixed into otherwise plain data. */
const special = fc.constantFrom<unknown>(
  undefined,
  -0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  new Date(0),
  () => 1,
  Symbol("s"),
  new Number(3),
  { toJSON: () => "custom" },
  JSON.parse('{"__proto__": {"x": 1}}'),
  new (class Point {
    x = 1;
  })(),
);

const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue(),
    special,
    fc.array(tie("node"), { maxLength: 5 }),
    fc.sparseArray(tie("node"), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie("node"), { maxKeys: 5 }),
  ),
})).node;

describe("jsonClone", () => {
  it("equals JSON.parse(JSON.stringify(v)), key order included, for plain and special values (2000 runs)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value, { maxKeys: 6 }), (v) => {
        const expected = roundTrip(v);
        const actual = jsonClone(v);
        expect(actual).toStrictEqual(expected);
        expect(JSON.stringify(actual)).toBe(JSON.stringify(v));
      }),
      fcOptions(2000),
    );
  });

  it("shares no object with its input (1000 runs)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 }), (v) => {
        const copy = jsonClone(v);
        const seen = new Set<unknown>();
        const collect = (x: unknown): void => {
          if (x !== null && typeof x === "object") {
            seen.add(x);
            for (const child of Object.values(x)) collect(child);
          }
        };
        collect(v);
        const shared: unknown[] = [];
        const walk = (x: unknown): void => {
          if (x !== null && typeof x === "object") {
            if (seen.has(x)) shared.push(x);
            for (const child of Object.values(x)) walk(child);
          }
        };
        walk(copy);
        expect(shared).toEqual([]);
      }),
      fcOptions(1000),
    );
  });

  it("keeps an own __proto__ key as a key, and -0 as 0", () => {
    const input = { a: [-0, 1], ...JSON.parse('{"__proto__": {"polluted": true}}') };
    const copy = jsonClone(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["a", "__proto__"]);
    expect(Object.is((copy.a as number[])[0], 0)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("throws what JSON.stringify throws: cycles and BigInt", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => jsonClone(cyclic)).toThrow(TypeError);
    expect(() => jsonClone({ n: 1n })).toThrow(TypeError);
  });

  it("handles nesting deeper than its own limit through the round trip", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 500; i++) deep = { next: [deep] };
    expect(jsonClone(deep)).toStrictEqual(roundTrip(deep));
  });
});
