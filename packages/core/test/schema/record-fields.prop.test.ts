import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asFiniteNumber, asRecord, asString } from "../../src/schema/record-fields.js";

/** Any JSON value a foreign writer could put in a field, and the non-JSON numbers. */
const anyField = fc.oneof(fc.jsonValue(), fc.constantFrom(Number.NaN, Infinity, -Infinity, -0));

describe("record field readers", () => {
  const PARAMS = fcOptions(300);
  it(`keep exactly the values of their kind and nothing else (numRuns ${PARAMS.numRuns})`, () => {
    fc.assert(
      fc.property(anyField, (value) => {
        const isObject = typeof value === "object" && value !== null && !Array.isArray(value);
        expect(asRecord(value)).toBe(isObject ? value : undefined);
        expect(asString(value)).toBe(typeof value === "string" ? value : undefined);
        const finite = typeof value === "number" && Number.isFinite(value);
        expect(asFiniteNumber(value)).toBe(finite ? value : undefined);
      }),
      PARAMS,
    );
  });

  it("read the odd values of a damaged record as absent", () => {
    for (const odd of [null, [], [1], Number.NaN, Infinity, "", 0, false])
      expect(asRecord(odd)).toBeUndefined();
    expect(asString(1)).toBeUndefined();
    expect(asString("")).toBe("");
    expect(asFiniteNumber("1")).toBeUndefined();
    expect(asFiniteNumber(-0)).toBe(-0);
  });
});
