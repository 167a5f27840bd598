/**
 * Lines that are not records (SPEC §2.1): text that is not JSON at all, and JSON values that are
 * not objects. Loaders must skip both, report them with their line number, and keep them in the
 * file (W4 kept in rewrites, W5 reported, W6 non-objects are malformed). No generated line contains
 * `\n` or is blank.
 */
import fc from "fast-check";

/** True when `line` is a line a loader must report as `invalid-json`. */
export function isInvalidJsonLine(line: string): boolean {
  if (line.includes("\n") || line.trim().length === 0) return false;
  try {
    JSON.parse(line);
    return false;
  } catch {
    return true;
  }
}

/** Makes any string an invalid-JSON line (no `\n`, not blank, does not parse). */
function asGarbage(s: string): string {
  const line = s.replace(/\n/g, " ");
  return isInvalidJsonLine(line) ? line : `#${line}`;
}

/**
 * A line that is not JSON: free text, a truncated record (a writer stopped mid-line), two
 * records glued together (an append onto a torn tail, W1), or random characters.
 */
export const garbageLineArb: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(
      "THIS LINE IS MALFORMED",
      "garbage line",
      '{"type":"message","id":"ab12cd34","parentId":null,"timestamp":"2025-',
      '{"type":"custom","customType":"x","id":"a1","parentId":null}{"type":"custom"}',
      "\u0000\u0001binary\u00ff",
      "{",
      "]",
      "undefined",
      "NaN",
    ),
    fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 30 }),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
  )
  .map(asGarbage);

/** A JSON value that is not an object, as a line: `42`, `"text"`, `[1,2]`, `true`, `null`. */
export const nonObjectLineArb: fc.Arbitrary<string> = fc
  .oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 12 }),
    fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
    fc.boolean(),
    fc.constant(null),
  )
  .map((v) => JSON.stringify(v));

/** A blank line: empty or whitespace only (ignored by loaders, but it counts for line numbers). */
export const blankLineArb: fc.Arbitrary<string> = fc.constantFrom("", " ", "\t", "  \r");
