/**
 * The canonical text of a JSON value: object keys sorted, no whitespace, numbers and strings as
 * `JSON.stringify` writes them. Two values are the same JSON value exactly when their canonical
 * texts are equal, whatever the key order or number spelling of the lines they came from — the
 * merge's notion of "the same entry" (SPEC §2.5: compare by JSON value, never by bytes).
 */

/** The canonical text of `value` (a parsed JSON value: no `undefined`, functions or cycles). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
}
