/**
 * The literal scanner against the obvious scan: for any set of literals (case-sensitive or
 * not, sharing beginnings, differing only in case) and any character counts choosing which
 * part of each is looked for, `tags(text)` holds the tag of every literal `text` contains,
 * and `test(text)` is true when there is one. (It may report more: it looks for a part of
 * each literal, and a gate may let through what no rule then matches.) A tag the scanner
 * misses is a rule that never sees a text holding its literal, so a secret it would find
 * survives.
 */
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { charFrequency, LiteralScanner } from "../src/literals/literal-scanner.js";

/** Few characters, in both cases: literals collide, share prefixes and differ only in case. */
const charArb = fc.constantFrom("a", "A", "b", "B", "_", "c");
const wordArb = (min: number, max: number) =>
  fc.array(charArb, { minLength: min, maxLength: max }).map((cs) => cs.join(""));
const literalArb = fc.record({
  text: wordArb(1, 6),
  ignoreCase: fc.boolean(),
  tag: fc.nat({ max: 5 }),
});

/** The tags of the literals `text` holds, found one literal at a time. */
function expectedTags(
  text: string,
  literals: readonly { text: string; ignoreCase: boolean; tag: number }[],
): Set<number> {
  const lower = text.toLowerCase();
  const out = new Set<number>();
  for (const l of literals) {
    if (l.ignoreCase ? lower.includes(l.text.toLowerCase()) : text.includes(l.text)) out.add(l.tag);
  }
  return out;
}

describe("LiteralScanner", () => {
  it("finds the tag of every literal a text holds (numRuns 2000)", () => {
    fc.assert(
      fc.property(
        fc.array(literalArb, { minLength: 1, maxLength: 6 }),
        wordArb(0, 24),
        fc.option(wordArb(0, 40), { nil: undefined }),
        (literals, text, sample) => {
          const scanner = new LiteralScanner(
            literals,
            sample === undefined ? undefined : charFrequency(sample),
          );
          const expected = expectedTags(text, literals);
          const tags = scanner.tags(text);
          for (const tag of expected) expect(tags.has(tag)).toBe(true);
          if (expected.size > 0) expect(scanner.test(text)).toBe(true);
        },
      ),
      fcOptions(2000),
    );
  });
});
