/**
 * The model's JSON comparison (what the context and projection checks use) and the checkers'
 * canonical JSON are one definition: a `__proto__` member that JSON.parse made (an own property,
 * as a session line can carry one) is data and must never compare equal to its absence. The
 * model once sorted keys into a plain `{}`, where assigning `__proto__` sets the prototype and
 * the member vanished, so `{"__proto__":{"x":1},"k":2}` matched `{"k":2}`.
 */
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../src/invariants/json.js";
import { describeDifference, firstDifference } from "../src/model/json.js";

describe("model JSON comparison", () => {
  it("sees an own __proto__ member as a difference", () => {
    const withProto = JSON.parse('{"__proto__":{"x":1},"k":2}') as unknown;
    expect(describeDifference("buildSessionContext()", withProto, { k: 2 })).toBe(
      'buildSessionContext(): at $.__proto__ got {"x":1}, expected undefined',
    );
    expect(describeDifference("buildSessionContext()", { k: 2 }, withProto)).toBe(
      'buildSessionContext(): at $.__proto__ got undefined, expected {"x":1}',
    );
    expect(canonicalJson(withProto)).toBe('{"__proto__":{"x":1},"k":2}');
  });

  it("an added __proto__ member always differs; key order never does (numRuns 200)", () => {
    const objectArb = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 });
    fc.assert(
      fc.property(objectArb, fc.jsonValue(), (object, protoValue) => {
        const members = Object.entries(object).filter(([k]) => k !== "__proto__");
        const plain = JSON.parse(JSON.stringify(Object.fromEntries(members))) as unknown;
        const reversed = JSON.parse(
          JSON.stringify(Object.fromEntries([...members].reverse())),
        ) as unknown;
        const text = JSON.stringify(Object.fromEntries(members));
        const inner = text === "{}" ? "" : `,${text.slice(1, -1)}`;
        const withProto = JSON.parse(`{"__proto__":${JSON.stringify(protoValue)}${inner}}`);
        expect(firstDifference(plain, reversed)).toBeUndefined();
        expect(firstDifference(withProto, plain)?.path).toBe("$.__proto__");
      }),
      fcOptions(200),
    );
  });
});
