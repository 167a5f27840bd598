/**
 * The JSON value of a value without building the string. Appends store each entry's JSON value
 * (SPEC §0.1 item 3: memory equals disk; [Fix] W20: no state shared with the caller), and an
 * in-memory session never needs the line: the round trip was about a quarter of an append's time
 * plus its garbage. Anything needing `JSON.stringify`'s own rules (each case below declines) takes
 * the real round trip, errors included.
 */

const DECLINE: unique symbol = Symbol("decline");

/** Nesting beyond this takes the round trip (which also reports cycles as JSON does). */
const MAX_DEPTH = 100;

const hasOwn = Object.prototype.hasOwnProperty;

/** Copies `value` as JSON would, or declines. */
function copy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // JSON writes -0 as 0, and NaN/±Infinity as null: leave those to the round trip.
      return Number.isFinite(value) ? value + 0 : DECLINE;
    case "object":
      if (value === null) return null;
      if (depth >= MAX_DEPTH) return DECLINE;
      return Array.isArray(value) ? copyArray(value, depth) : copyObject(value, depth);
    default:
      return DECLINE;
  }
}

function copyArray(array: unknown[], depth: number): unknown {
  if (Object.getPrototypeOf(array) !== Array.prototype) return DECLINE;
  const out = new Array<unknown>(array.length);
  for (let i = 0; i < array.length; i++) {
    // A hole or undefined reads as undefined and declines: JSON writes null there.
    const item = copy(array[i], depth + 1);
    if (item === DECLINE) return DECLINE;
    out[i] = item;
  }
  return out;
}

function copyObject(object: object, depth: number): unknown {
  if (Object.getPrototypeOf(object) !== Object.prototype) return DECLINE;
  const source = object as Record<string, unknown>;
  if (typeof source.toJSON === "function") return DECLINE;
  const out: Record<string, unknown> = {};
  // for-in filtered to own keys yields JSON.stringify's keys in its order without the array
  // Object.keys allocates per object (appends clone every entry); assigning in order keeps it.
  for (const key in source) {
    if (!hasOwn.call(source, key)) continue;
    const raw = source[key];
    // JSON leaves these keys out of objects.
    if (raw === undefined || typeof raw === "function" || typeof raw === "symbol") continue;
    // Assigning "__proto__" would set the prototype instead of creating the key.
    if (key === "__proto__") return DECLINE;
    const item = copy(raw, depth + 1);
    if (item === DECLINE) return DECLINE;
    out[key] = item;
  }
  return out;
}

/** `JSON.parse(JSON.stringify(value))`, without the string for plain data; throws as it does. */
export function jsonClone<T>(value: T): T {
  const fast = copy(value, 0);
  if (fast !== DECLINE) return fast as T;
  return JSON.parse(JSON.stringify(value)) as T;
}
