/**
 * The literals derived from a regex are really required: for generated regexes (literals,
 * classes, alternations, optional and repeated parts, groups, anchors, lookarounds,
 * backreferences, with and without the `i` flag) and generated texts, whenever the regex
 * matches a text, the text holds one of the derived literals (compared as the regex compares
 * case). A literal that is not required would let the gate skip a text the rule matches.
 */
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requiredLiterals } from "../src/literals/required-literals.js";

const atomArb = fc.constantFrom(
  "a",
  "b",
  "A",
  "B",
  "_",
  "[ab]",
  "[aB_]",
  "[a-c]",
  ".",
  "\\w",
  "[^a]",
);
const { regex: regexArb } = fc.letrec<{ regex: string; piece: string }>((tie) => ({
  regex: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.array(tie("piece"), { minLength: 1, maxLength: 5 }).map((p) => p.join("")),
    },
    {
      weight: 1,
      arbitrary: fc.array(tie("piece"), { minLength: 2, maxLength: 3 }).map((p) => p.join("|")),
    },
  ),
  piece: fc.oneof(
    { weight: 6, arbitrary: atomArb },
    { weight: 1, arbitrary: fc.constantFrom("^", "$", "\\b", "(?=a)", "(?<!b)") },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          tie("regex"),
          fc.constantFrom("", "?", "*", "+", "{2}", "{1,2}", "{0,1}"),
          fc.boolean(),
        )
        .map(([r, q, capture]) => `(${capture ? "" : "?:"}${r})${q}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(atomArb, fc.constantFrom("?", "*", "+", "{2}", "{1,3}"))
        .map(([a, q]) => a + q),
    },
  ),
}));

describe("requiredLiterals", () => {
  it("every text a regex matches holds one of its literals (numRuns 3000)", () => {
    fc.assert(
      fc.property(
        regexArb,
        fc.constantFrom("", "i"),
        fc.array(fc.stringMatching(/^[abAB_c ]{0,10}$/), { minLength: 1, maxLength: 8 }),
        (source, flags, texts) => {
          let regex: RegExp;
          try {
            regex = new RegExp(source, flags);
          } catch {
            return; // not a valid regex (a quantified assertion): nothing to derive
          }
          const required = requiredLiterals(regex, 1, () => true);
          if (required === undefined) return;
          expect(required.ignoreCase).toBe(regex.ignoreCase);
          for (const text of texts) {
            if (!regex.test(text)) continue;
            const hay = required.ignoreCase ? text.toLowerCase() : text;
            const found = required.literals.some((l) =>
              hay.includes(required.ignoreCase ? l.toLowerCase() : l),
            );
            expect(found, `${regex} matched ${JSON.stringify(text)}`).toBe(true);
          }
        },
      ),
      fcOptions(3000),
    );
  });
});
