/**
 * JSON comparison helpers. Session data is compared as JSON values because that is what
 * reaches the file: `undefined`-valued keys count as missing and NaN as `null` (SPEC §0.1
 * invariant 3). Entries are also compared with key order (SPEC §3.2 gives the order each
 * append writes); derived values such as context messages are compared without it, through the
 * checkers' one canonical JSON (`invariants/json.ts`).
 */

import { canonicalJson } from "../invariants/json.js";

/** A deep copy through JSON, as an implementation storing the serialised line would hold it. */
export function jsonCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** `value` as JSON text with object keys in their own order (what a file line holds). */
export function orderedJson(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

/** Shortens long JSON for messages. */
export function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * What a thrown value says: an Error's message, else `non-Error thrown: <text>`. Never throws
 * itself: an implementation under test may throw anything, including an object that has no
 * `toString` (`Object.create(null)`) or a getter that throws, and a report must survive it.
 */
export function describeThrown(e: unknown): string {
  try {
    if (e instanceof Error) return typeof e.message === "string" ? e.message : String(e.message);
    return `non-Error thrown: ${String(e)}`;
  } catch {
    return `non-Error thrown: ${Object.prototype.toString.call(e)}`;
  }
}

/** Where two JSON values first differ, with both sides there as (shortened) JSON text. */
export interface JsonDifference {
  path: string;
  actual: string;
  expected: string;
}

/**
 * The path of the first difference between two JSON values (`$.a[2].b`) with both sides as
 * JSON text, or undefined when they are equal as JSON values.
 */
export function firstDifference(actual: unknown, expected: unknown): JsonDifference | undefined {
  const walk = (a: unknown, b: unknown, path: string): JsonDifference | undefined => {
    if (canonicalJson(a) === canonicalJson(b)) return undefined;
    const bothObjects = typeof a === "object" && typeof b === "object" && a !== null && b !== null;
    if (bothObjects && Array.isArray(a) === Array.isArray(b)) {
      // Own members only: a `__proto__` key that JSON.parse made is an own property of one
      // side, and reading it on the other side must give undefined, not Object.prototype.
      const member = (r: object, key: string): unknown =>
        Object.hasOwn(r, key) ? (r as Record<string, unknown>)[key] : undefined;
      const keys = Array.isArray(a)
        ? Array.from({ length: Math.max(a.length, (b as unknown[]).length) }, (_, i) => String(i))
        : [...new Set([...Object.keys(a), ...Object.keys(b)])];
      for (const key of keys) {
        const sub = Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`;
        const found = walk(member(a, key), member(b, key), sub);
        if (found) return found;
      }
    }
    if (typeof a === "string" && typeof b === "string") {
      // Long texts (file contents): show both around the first differing character.
      let i = 0;
      while (i < a.length && a[i] === b[i]) i++;
      const from = Math.max(0, i - 40);
      const excerpt = (s: string) => clip(JSON.stringify(s.slice(from, i + 80)), 160);
      return { path: `${path} (char ${i})`, actual: excerpt(a), expected: excerpt(b) };
    }
    return { path, actual: clip(orderedJson(a)), expected: clip(orderedJson(b)) };
  };
  return walk(actual, expected, "$");
}

/**
 * A one-line description of how `actual` differs from `expected` as JSON values, or
 * undefined when they are equal.
 */
export function describeDifference(
  what: string,
  actual: unknown,
  expected: unknown,
): string | undefined {
  const d = firstDifference(actual, expected);
  if (!d) return undefined;
  return `${what}: at ${d.path} got ${d.actual}, expected ${d.expected}`;
}
