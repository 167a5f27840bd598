/**
 * JSON-value comparison for the checkers: two values are equal when they serialise to the same
 * JSON with keys sorted (SPEC §0.1 "JSON-equal"). Maps and Sets compare by their entries, so
 * projection states can be compared too.
 */

/** A canonical JSON text of `value`: sorted keys, Maps and Sets as arrays, `undefined` dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Map) return { "<Map>": [...v.entries()] };
    if (v instanceof Set) return { "<Set>": [...v.values()] };
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      // A null prototype: a `__proto__` key is then an own property, as JSON.parse makes it.
      const sorted = Object.create(null) as Record<string, unknown>;
      for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

/** True when `a` and `b` are the same JSON value (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** A short preview of a value for a violation message. */
export function preview(value: unknown, max = 80): string {
  const text = canonicalJson(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
