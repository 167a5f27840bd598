/**
 * Building blocks shared by the arbitraries: text, opaque JSON, times and deterministic ids.
 *
 * Every value produced here survives `JSON.parse(JSON.stringify(v))` unchanged (no `-0`, no
 * `NaN`, no `undefined`-valued keys), because session entries are compared with what a file
 * gives back. Nothing reads the clock or `Math.random`: the same seed gives the same values.
 */
import fc from "fast-check";

/** Earliest instant the arbitraries use (2023-01-01T00:00:00.000Z). */
export const MIN_MS = Date.UTC(2023, 0, 1);
/** Latest instant the arbitraries use (2027-01-01T00:00:00.000Z). */
export const MAX_MS = Date.UTC(2027, 0, 1);

/** A Unix time in milliseconds within [{@link MIN_MS}, {@link MAX_MS}]. */
export const msArb: fc.Arbitrary<number> = fc.integer({ min: MIN_MS, max: MAX_MS });

/** An ISO-8601 UTC timestamp with milliseconds, as pi writes entry timestamps. */
export function isoFromMs(ms: number): string {
  return new Date(ms).toISOString();
}

/** Strings that tend to break naive writers: newlines, quotes, separators, emoji, NUL. */
const AWKWARD_TEXT = [
  "",
  " ",
  "line one\nline two",
  "crlf\r\nend",
  'tab\tand "quotes" and \\ backslash',
  "line separator \u2028 paragraph \u2029",
  "emoji 🎉 and accents é ü",
  "nul \u0000 char",
  '{"type":"session"}',
] as const;

/**
 * Message text: mostly printable ASCII, sometimes any unicode grapheme, sometimes one of a few
 * awkward strings (newlines, quotes, U+2028, NUL). Short, so counterexamples stay readable.
 */
export const textArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom(...AWKWARD_TEXT) },
);

/** A short lowercase word, for names such as providers, tools and custom types. */
export const wordArb: fc.Arbitrary<string> = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);

/** Removes `-0` (JSON writes it as `0`, so it would not survive a file). */
function noNegativeZero(x: number): number {
  return Object.is(x, -0) ? 0 : x;
}

/** A finite non-negative double (costs), JSON-stable. */
export const amountArb: fc.Arbitrary<number> = fc
  .double({ min: 0, max: 50, noNaN: true, noDefaultInfinity: true })
  .map(noNegativeZero);

/**
 * Any JSON value, normalised through `JSON.stringify`/`JSON.parse` so that it is exactly what
 * a parsed line holds (plain prototypes, `__proto__` as an own key, no `-0`).
 */
export const jsonValueArb: fc.Arbitrary<unknown> = fc
  .jsonValue({ maxDepth: 2 })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);

/** A JSON object (opaque payloads: `details`, `data`, tool arguments), normalised as above. */
export const jsonObjectArb: fc.Arbitrary<Record<string, unknown>> = fc
  .dictionary(wordArb, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 })
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);

/** How generated logs spell entry ids. */
export type IdStyle =
  /** 8 lowercase hex characters, as pi generates them (default). */
  | "hex8"
  /** `e1`, `e2`, … — readable counterexamples. */
  | "short"
  /** A full 36-character UUID, the reference's fallback after 100 collisions. */
  | "uuid";

/** Knuth's multiplicative constant: odd, so `x * K mod 2^32` is a bijection on 32-bit ints. */
const MIX = 0x9e3779b1;

/** A 32-bit value that is distinct for distinct `n` (a bijection of `n mod 2^32`). */
function mix32(n: number): number {
  return Math.imul(n >>> 0, MIX) >>> 0;
}

/**
 * The id of the `index`-th entry of a generated log. Distinct indexes give distinct ids for a
 * given `salt` and style (the hex styles are bijections of `index + salt` mod 2^32), so ids are
 * unique by construction, deterministic, and never need a uniqueness filter.
 */
export function entryIdFor(index: number, salt: number, style: IdStyle = "hex8"): string {
  if (style === "short") return `e${index + 1}`;
  const h = mix32(index + salt)
    .toString(16)
    .padStart(8, "0");
  if (style === "hex8") return h;
  const tail = mix32(index ^ 0x5bd1e995)
    .toString(16)
    .padStart(8, "0");
  return `${h}-${tail.slice(0, 4)}-4${tail.slice(4, 7)}-8${h.slice(0, 3)}-${tail}${h.slice(4, 8)}`;
}
