/**
 * Total string helpers for the renderers: none of them throws on any input, so a renderer
 * built from them cannot fail on damaged data.
 */

/** Maps C0/C1 controls (except newline and tab) and bidi overrides to visible characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

function controlPicture(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return "\uFFFD";
}

/**
 * Text safe to print: CRLF becomes LF, and control characters (ANSI escapes, NUL, lone CR)
 * and bidi overrides become visible symbols, so stored text cannot drive a terminal or hide
 * what a transcript says.
 */
export function sanitize(text: string): string {
  return text.replace(/\r\n/g, "\n").replace(CONTROL, controlPicture);
}

/** `String(value)` that never throws (null-prototype objects, throwing `toString`, symbols). */
export function safeString(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Reads `key` of an object-like value; undefined for anything else or a throwing getter. */
export function get(obj: unknown, key: string): unknown {
  if (typeof obj !== "object" || obj === null) return undefined;
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Pretty JSON that never throws: cycles, BigInt and deep nesting fall back to `String`. */
export function safeJson(value: unknown, indent = 2): string {
  try {
    const json = JSON.stringify(
      value,
      (_k, v: unknown) => (typeof v === "bigint" ? `${v.toString()}n` : v),
      indent,
    );
    return json === undefined ? safeString(value) : json;
  } catch (error) {
    return `[unserializable: ${errorMessage(error)}]`;
  }
}

/** The message of anything thrown, never throwing itself. */
export function errorMessage(error: unknown): string {
  const message = get(error, "message");
  return typeof message === "string" ? message : safeString(error);
}

/**
 * At most `max` characters, with a note of how many were left out. Never splits a surrogate
 * pair.
 */
export function truncate(text: string, max: number): string {
  if (!(text.length > max) || max < 0) return text;
  let end = Math.floor(max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}… [${formatInt(text.length - end)} more characters]`;
}

/** An integer with thousands separators, independent of the locale. */
export function formatInt(n: number): string {
  if (!Number.isFinite(n)) return "0";
  const sign = n < 0 ? "-" : "";
  const digits = Math.round(Math.abs(n)).toString();
  // Number#toString switches to exponent notation past 1e21; group only plain digits.
  if (!/^\d+$/.test(digits)) return sign + digits;
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * A dollar amount: cents for large sums, four decimals for the usual sub-dollar calls, and
 * two significant digits below a hundredth of a cent, so a cheap call does not read as free.
 */
export function formatCost(n: number): string {
  if (!Number.isFinite(n) || n === 0) return "$0";
  const abs = Math.abs(n);
  if (abs >= 1) return `$${n.toFixed(2)}`;
  if (abs >= 0.0001) return `$${n.toFixed(4)}`;
  return `$${Number(n.toPrecision(2)).toFixed(Math.min(20, 1 - Math.floor(Math.log10(abs))))}`;
}

/** Prefixes every line (empty lines get the prefix without trailing spaces). */
export function prefixLines(text: string, prefix: string): string {
  if (prefix === "") return text;
  const bare = prefix.trimEnd();
  return text
    .split("\n")
    .map((line) => (line === "" ? bare : prefix + line))
    .join("\n");
}
