/**
 * The shortest unique prefix of `short-ids.ts` against the match `<session>` arguments use:
 * every prefix shown names its own session and no other, is never shorter than eight
 * characters (or the whole id), and is minimal.
 */

import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idHasPrefix, MIN_SHORT_ID, shortIdsAmong, shortIdsOf } from "../src/session/short-ids.js";

/** Ids over a two-letter alphabet: long shared prefixes, ids that prefix others, duplicates. */
const idsArb = fc.array(
  fc.string({ unit: fc.constantFrom("0", "1"), minLength: 1, maxLength: 14 }),
  {
    minLength: 1,
    maxLength: 30,
  },
);

/** How `resolve-session.ts` reads an id argument: an exact id first, then the one prefix match. */
function resolves(all: readonly string[], arg: string): string[] {
  const exact = all.filter((id) => id === arg);
  return exact.length > 0 ? exact : all.filter((id) => idHasPrefix(id, arg));
}

describe("shortIdsAmong", () => {
  it("shows a prefix that resolves back to its id alone, and no shorter one would (numRuns 500)", () => {
    fc.assert(
      fc.property(idsArb, (ids) => {
        const all = [...new Set(ids)];
        const shortId = shortIdsAmong(ids);
        for (const id of all) {
          const shown = shortId(id);
          expect(idHasPrefix(id, shown)).toBe(true);
          expect(shown.length).toBeGreaterThanOrEqual(Math.min(MIN_SHORT_ID, id.length));
          expect(resolves(all, shown)).toEqual([id]);
          if (shown.length > MIN_SHORT_ID) {
            // One character fewer names another session too, or another one alone.
            expect(resolves(all, shown.slice(0, -1))).not.toEqual([id]);
          }
        }
      }),
      fcOptions(500),
    );
  });

  it("shortIdsOf shortens every id as shortIdsAmong does, in order (numRuns 500)", () => {
    fc.assert(
      fc.property(idsArb, (ids) => {
        expect(shortIdsOf(ids)).toEqual(ids.map(shortIdsAmong(ids)));
      }),
      fcOptions(500),
    );
  });

  it("keeps eight characters where they are unique and lengthens only shared ones", () => {
    const ids = [
      "01a24370-1c2d-7000-8000-000000000001",
      "01a24370-9f00-7000-8000-000000000002",
      "01a24371-0000-7000-8000-000000000003",
      "01a24380-5555-7000-8000-000000000004",
    ];
    const shortId = shortIdsAmong(ids);
    expect(ids.map(shortId)).toEqual(["01a24370-1", "01a24370-9", "01a24371", "01a24380"]);
    // An id not among them is measured against its would-be neighbours.
    expect(shortId("01a24370-1c00")).toBe("01a24370-1c0");
  });
});
