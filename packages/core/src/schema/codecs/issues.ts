/**
 * Schema issues: io-ts validation errors turned into small, tagged values with a readable path
 * (`message.content[1].text`), and a decoder wrapper that never throws.
 */

import * as E from "fp-ts/lib/Either.js";
import type * as t from "io-ts";

/** One reason a value does not match a schema codec. */
export interface SchemaIssue {
  /** Where, as a JS-like path from the decoded value: `message.content[1].text`; `""` = the value itself. */
  readonly path: string;
  /** What the codec expected there: a type name such as `string`, `Usage` or `string | null`. */
  readonly expected: string;
  /**
   * What was found, kept short: primitives as they are (long strings cut), objects and arrays
   * as a description such as `"<object>"` or `"<array(3)>"`; `undefined` when the field is missing.
   */
  readonly actual?: unknown;
  /** A human sentence without the path, e.g. `expected number, got "400"`. */
  readonly message: string;
}

/**
 * One line for logs and diagnostics: `message.usage.input: expected number, got "400"`
 * (`check` puts the record's file line in front: `line 12: message.usage.input: …`).
 */
export function formatSchemaIssue(issue: SchemaIssue): string {
  return `${issue.path === "" ? "(root)" : issue.path}: ${issue.message}`;
}

const MAX_STRING = 60;
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

/** A short stand-in for `u`, safe to log and to keep in memory. */
function shortActual(u: unknown): unknown {
  if (typeof u === "string") return u.length > MAX_STRING ? `${u.slice(0, MAX_STRING)}…` : u;
  if (Array.isArray(u)) return `<array(${u.length})>`;
  if (typeof u === "object" && u !== null) return "<object>";
  if (typeof u === "bigint" || typeof u === "symbol" || typeof u === "function")
    return `<${typeof u}>`;
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
 * The path and expected type of one io-ts error. A context key is a path segment only when
 * its parent is an object (field name) or an array (index); intersection and union members
 * and codec hand-overs (empty keys) add none. `expected` is the codec at the last segment, so
 * a union such as `string | null` is reported once, under its own name.
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

/**
 * Decodes `u` with any codec, returning the value unchanged (same object) or its issues.
 * Never throws: a throwing getter or proxy in `u` (impossible for parsed JSON) becomes an issue.
 */
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
