/**
 * A projection declares its rule's version and its state's encoding beside its rule (SPEC §14
 * F2), and is then the very fold a store saves: `saveFoldState` keeps `{ name, version, state }`
 * as the projection encodes it, and `restoreFoldState` gives the state back only under the same
 * name and version. The compiler refuses a version declared without an encoding.
 */
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { expect, test } from "vitest";
import type { SessionEntry } from "../../src/schema/types.js";
import { defineProjection, replayProjection } from "../../src/state/projection.js";
import { restoreFoldState, saveFoldState } from "../../src/store/listing-folds.js";

/** A count of entries by type: a small rule with a version and a JSON encoding. */
const countsByType = defineProjection<Readonly<Record<string, number>>>({
  name: "counts-by-type",
  version: 3,
  init: () => ({}),
  apply: (state, entry) => ({ ...state, [entry.type]: (state[entry.type] ?? 0) + 1 }),
  encode: (state) => JSON.stringify(state),
  decode: (text) => JSON.parse(text) as Record<string, number>,
});

const entryOf = (type: string, i: number) =>
  ({ type, id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: "t" }) as SessionEntry;

const SETTINGS = fcOptions(100);

test(`a saved state is restored only under its projection's name and version (numRuns ${SETTINGS.numRuns})`, () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom("message", "custom", "label"), { maxLength: 30 }),
      (types) => {
        const state = replayProjection(countsByType, types.map(entryOf));
        const saved = saveFoldState(countsByType, state);
        expect(saved).toEqual({ name: "counts-by-type", version: 3, state: JSON.stringify(state) });
        expect(restoreFoldState(countsByType, saved ?? undefined)).toEqual(state);
        const older = { ...(saved as NonNullable<typeof saved>), version: 2 };
        expect(restoreFoldState(countsByType, older)).toBeUndefined();
        const other = { ...(saved as NonNullable<typeof saved>), name: "counts" };
        expect(restoreFoldState(countsByType, other)).toBeUndefined();
      },
    ),
    SETTINGS,
  );
});

test("a state the projection cannot encode exactly is not saved", () => {
  const inexact = defineProjection<number>({
    name: "sum",
    version: 1,
    init: () => 0,
    apply: (state) => state * 1e308,
    encode: (state) => (Number.isFinite(state) ? String(state) : null),
    decode: Number,
  });
  expect(saveFoldState(inexact, Number.POSITIVE_INFINITY)).toBeNull();
  expect(saveFoldState(inexact, 2)).toEqual({ name: "sum", version: 1, state: "2" });
});

test("a projection without a version is no saved fold, and a version needs an encoding", () => {
  const plain = defineProjection<number>({ name: "n", init: () => 0, apply: (n) => n + 1 });
  expect(plain.version).toBeUndefined();
  // @ts-expect-error a plain projection has no version or encoding: a store cannot save it
  expect(() => saveFoldState(plain, 1)).toThrow(TypeError);
  // @ts-expect-error a version declared without `encode` and `decode` does not compile
  defineProjection<number>({ name: "v", version: 1, init: () => 0, apply: (n) => n + 1 });
});
