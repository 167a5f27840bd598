/**
 * `truncate` cuts a long text from a prefix only (O(width), so a 30 MB message is never copied
 * whole to show a line of it); the law: it equals flattening the whole text, then cutting.
 */

import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { truncate } from "../src/io/output.js";

/** The definition: every whitespace run one space, trimmed, cut with an ellipsis. */
function flattenThenCut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  return max <= 1 ? flat.slice(0, max) : `${flat.slice(0, max - 1)}…`;
}

const PARAMS = fcOptions(2000);

describe("truncate", () => {
  it(`equals flattening the whole text and cutting it (numRuns ${PARAMS.numRuns})`, () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom(" ", "  ", "\n", "\t \n", "a", "bc", "é"), fc.string()), {
        maxLength: 80,
      })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 40 }), (t, max) => {
        expect(truncate(t, max)).toBe(flattenThenCut(t, max));
      }),
      PARAMS,
    );
  });
});
