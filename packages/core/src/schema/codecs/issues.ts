/** io-ts errors as small values with a readable path, and a decoder wrapper that never throws. */

import * as E from "fp-ts/lib/Either.js";
import type * as t from "io-ts";

/** One reason a value does not match a schema codec. */
export interface SchemaIssue {
  /** A JS-like path from the decoded value, `message.content[1].text`; `""` is the value. */
  readonly path: string;
  /** The type name the codec expected there: `string`, `Usage`, `string | null`. */
  readonly expected: string;
  /** What was found, kept short (`"<object>"`, `"<array(3)>"`); absent for a missing field. */
  readonly actual?: unknown;
  /** A sentence without the path: `expected number, got "400"`. */
  readonly message: string;
}

/** One line for logs (`check` puts `line 12: ` in front): `message.usage.input: expected …`. */
export function formatSchemaIssue(issue: SchemaIssue): string {
  return `${issue.path === "" ? "(root)" : issue.path}: ${issue.message}`;
}

/** io-ts codec tags whose child keys are field names (`DispatchType`: a union's tag key). */
const FIELD_PARENTS = new Set([
  "InterfaceType",
  "PartialType",
  "StrictType",
  "ExactType",
  "DictionaryType",
  "DispatchType",
]);
/** io-ts codec tags whose child keys are indices. */
const INDEX_PARENTS = new Set(["ArrayType", "ReadonlyArrayType", "TupleType"]);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `text` cut to `max` characters, the cut marked with `…`. */
export function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A short stand-in for `u`, safe to log and to keep in memory. */
function shortActual(u: unknown): unknown {
  if (typeof u === "string") return shorten(u, 60);
  if (Array.isArray(u)) return `<array(${u.length})>`;
  if (typeof u === "object" && u !== null) return "<object>";
  if (["bigint", "symbol", "function"].includes(typeof u)) return `<${typeof u}>`;
  return u;
}

/** `u` for a message: a string quoted (the quotes say it is one), other values with their type. */
function describe(u: unknown): string {
  if (u === null) return "null";
  if (typeof u === "string") return JSON.stringify(shortActual(u));
  if (Array.isArray(u)) return `array (${u.length} items)`;
  if (typeof u === "object") return "object";
  if (typeof u === "number" || typeof u === "boolean") return `${typeof u} ${String(u)}`;
  return typeof u;
}

/**
 * The path and expected type of one io-ts error. Only keys under an object or array are path
 * segments (not union or intersection members, nor hand-overs' empty keys), and `expected` is
 * the codec at the last one, so a union such as `string | null` is reported under its name.
 */
function locate(context: t.Context): { path: string; expected: string } {
  let path = "";
  let at = 0;
  for (let i = 1; i < context.length; i++) {
    const key = context[i]?.key ?? "";
    if (key === "") continue;
    // io-ts codecs carry a `_tag` naming their kind; custom decoders may not.
    const parent = context[i - 1]?.type as { readonly _tag?: unknown } | undefined;
    const parentTag = String(parent?._tag);
    if (INDEX_PARENTS.has(parentTag)) path += `[${key}]`;
    else if (!FIELD_PARENTS.has(parentTag)) continue;
    else if (IDENTIFIER.test(key)) path += `${path === "" ? "" : "."}${key}`;
    else path += `[${JSON.stringify(key)}]`;
    at = i;
  }
  return { path, expected: context[at]?.type.name ?? "unknown" };
}

/** io-ts errors as schema issues, one per (path, expected) pair, in the order found. */
function toSchemaIssues(errors: t.Errors): SchemaIssue[] {
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const { context, value, message } of errors) {
    const { path, expected } = locate(context);
    const key = `${path}\u0000${expected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (value === undefined) {
      issues.push({ path, expected, message: message ?? `missing; expected ${expected}` });
    } else {
      const text = message ?? `expected ${expected}, got ${describe(value)}`;
      issues.push({ path, expected, actual: shortActual(value), message: text });
    }
  }
  return issues;
}

/** Decodes `u` to the same object or its issues; a throwing getter or proxy becomes an issue. */
export function decodeWith<A>(
  codec: t.Decoder<unknown, A>,
  u: unknown,
): E.Either<SchemaIssue[], A> {
  try {
    return E.mapLeft(toSchemaIssues)(codec.decode(u));
  } catch (error) {
    const message = `could not be checked: ${error instanceof Error ? error.message : String(error)}`;
    return E.left([{ path: "", expected: codec.name, message }]);
  }
}
