/**
 * Reading a custom payload: find its version, upcast it to the current one, decode it. Pure;
 * results are memoised per (type, entry object), so the append guard, the branch reducer
 * and the renderers decode each stored entry once.
 */
import {
  type CustomEntry,
  type CustomMessageEntry,
  formatSchemaIssue,
  type SchemaIssue,
} from "@pi-sessions/core";
import { decodeWith, isJsonRecord } from "@pi-sessions/core/internal";
import type { Either } from "fp-ts/lib/Either.js";
import { isLeft, left, right } from "fp-ts/lib/Either.js";
import type {
  AnyCustomType,
  CustomEntryType,
  CustomMessagePayload,
  CustomMessageType,
} from "./custom-type.js";

/** Why a stored payload could not be read. */
export type CustomDataProblemKind =
  | "bad-version"
  | "newer-version"
  | "upcast-failed"
  | "invalid-data";

/** A payload that could not be read, with the io-ts paths of what is wrong. */
export interface CustomDataProblem {
  readonly kind: CustomDataProblemKind;
  /** The version the payload says it has (1 when it says none). */
  readonly version: number;
  /** What is wrong, with paths from the entry (`data.title`, `details.v`, `content[0].text`). */
  readonly issues: readonly SchemaIssue[];
  /** One line: `custom entry "todo" v1: data.title: expected string, got number 3`. */
  readonly message: string;
}

/** A payload read and upcast to the current version. */
export interface DecodedPayload<A> {
  readonly value: A;
  /** The version it was stored with. */
  readonly storedVersion: number;
}

/** The decoded value a custom type yields. */
export type ValueOfType<D extends AnyCustomType> =
  D extends CustomEntryType<string, infer A>
    ? A
    : D extends CustomMessageType<string, infer Dt, infer C>
      ? CustomMessagePayload<Dt, C>
      : never;

/** The object holding `v`: `data` of a custom entry, `details` of a custom message. */
function versionHolder(type: AnyCustomType, payload: unknown): unknown {
  return type.kind === "custom" ? payload : (payload as { details?: unknown } | null)?.details;
}

const holderPath = (type: AnyCustomType): string => (type.kind === "custom" ? "data" : "details");

function describeType(type: AnyCustomType): string {
  return `${type.kind === "custom" ? "custom entry" : "custom message"} "${type.customType}"`;
}

function problem(
  type: AnyCustomType,
  kind: CustomDataProblemKind,
  version: number,
  issues: readonly SchemaIssue[],
): CustomDataProblem {
  const detail = issues.map(formatSchemaIssue).join("; ");
  return { kind, version, issues, message: `${describeType(type)} v${version}: ${detail}` };
}

/** The stored version of a payload: its `v`, or 1 when it has none. */
export function storedVersionOf(
  type: AnyCustomType,
  payload: unknown,
): Either<CustomDataProblem, number> {
  const holder = versionHolder(type, payload);
  if (!isJsonRecord(holder) || !Object.hasOwn(holder, "v")) return right(1);
  const v = holder.v;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 1) return right(v);
  const path = `${holderPath(type)}.v`;
  return left(
    problem(type, "bad-version", 1, [
      { path, expected: "integer ≥ 1", actual: v, message: "the version must be an integer ≥ 1" },
    ]),
  );
}

const prefixed = (prefix: string, issues: readonly SchemaIssue[]): SchemaIssue[] =>
  issues.map((i) => ({
    ...i,
    path: i.path === "" ? prefix : `${prefix}${i.path.startsWith("[") ? "" : "."}${i.path}`,
  }));

function decodeCurrent<A>(type: AnyCustomType, payload: unknown): Either<SchemaIssue[], A> {
  if (type.kind === "custom") {
    const r = decodeWith(type.data, payload);
    return isLeft(r) ? left(prefixed("data", r.left)) : right(r.right as A);
  }
  const p = isJsonRecord(payload) ? payload : {};
  const content = decodeWith(type.content, p.content);
  const details = decodeWith(type.details, p.details);
  const issues = [
    ...(isLeft(content) ? prefixed("content", content.left) : []),
    ...(isLeft(details) ? prefixed("details", details.left) : []),
  ];
  if (issues.length > 0 || isLeft(content) || isLeft(details)) return left(issues);
  return right({ content: content.right, details: details.right } as A);
}

/**
 * Reads a payload of `type`: version, upcasts (in order, from the stored version), then the
 * current codec. A payload from a newer version, a throwing upcaster and a codec mismatch
 * are problems, never exceptions.
 */
export function decodePayload<D extends AnyCustomType>(
  type: D,
  payload: unknown,
): Either<CustomDataProblem, DecodedPayload<ValueOfType<D>>> {
  const stored = storedVersionOf(type, payload);
  if (isLeft(stored)) return stored;
  const version = stored.right;
  if (version > type.version) {
    const path = `${holderPath(type)}.v`;
    return left(
      problem(type, "newer-version", version, [
        {
          path,
          expected: `version ≤ ${type.version}`,
          actual: version,
          message: `written by a newer version (v${version}); this plugin reads up to v${type.version}`,
        },
      ]),
    );
  }
  let current = payload;
  for (let from = version; from < type.version; from++) {
    try {
      current = (type.upcasters[from] as (u: unknown) => unknown)(current);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return left(
        problem(type, "upcast-failed", version, [
          { path: "", expected: `v${from + 1}`, message: `upcast from v${from} failed: ${reason}` },
        ]),
      );
    }
  }
  const decoded = decodeCurrent<ValueOfType<D>>(type, current);
  if (isLeft(decoded)) return left(problem(type, "invalid-data", version, decoded.left));
  return right({ value: decoded.right, storedVersion: version });
}

/** The payload of an entry as a type sees it: `data`, or `{ content, details }`. */
export function payloadOfEntry(entry: CustomEntry | CustomMessageEntry): unknown {
  return entry.type === "custom" ? entry.data : { content: entry.content, details: entry.details };
}

type Result = Either<CustomDataProblem, DecodedPayload<unknown>>;
const memo = new WeakMap<AnyCustomType, WeakMap<object, Result>>();

/**
 * {@link decodePayload} of a stored entry, memoised per (type, entry object): stored entries
 * are immutable, so the guard, the reducer and the renderers share one decode per entry.
 */
export function decodeCustomEntry<D extends AnyCustomType>(
  type: D,
  entry: CustomEntry | CustomMessageEntry,
): Either<CustomDataProblem, DecodedPayload<ValueOfType<D>>> {
  let byEntry = memo.get(type);
  if (!byEntry) {
    byEntry = new WeakMap();
    memo.set(type, byEntry);
  }
  let result = byEntry.get(entry);
  if (!result) {
    result = decodePayload(type, payloadOfEntry(entry));
    byEntry.set(entry, result);
  }
  return result as Either<CustomDataProblem, DecodedPayload<ValueOfType<D>>>;
}

/**
 * Adds `v: version` to a payload of a versioned type, so it reads back as the current
 * version (version 1 needs nothing). The payload is typed as the current version, so a stale
 * older `v` it carries (data read back and appended again) is replaced. A `v` that claims a
 * newer version, or is no version at all, is kept: the append guard then refuses it, as it
 * refuses a raw append, instead of the data being relabelled as the current version. Throws a
 * TypeError when the holder is not an object.
 */
export function stampVersion(type: AnyCustomType, payload: unknown): unknown {
  if (type.version === 1) return payload;
  const holder = versionHolder(type, payload);
  if (holder !== undefined && !isJsonRecord(holder)) {
    throw new TypeError(
      `${describeType(type)} is versioned (v${type.version}): its ${holderPath(type)} must be an object to carry "v"`,
    );
  }
  const stored = storedVersionOf(type, payload);
  if (isLeft(stored) || stored.right > type.version) return payload;
  const { v: _stale, ...rest } = (holder ?? {}) as Record<string, unknown>;
  const stamped = { v: type.version, ...rest };
  return type.kind === "custom" ? stamped : { ...(payload as object), details: stamped };
}

/** A registered custom entry, decoded (or not) by the type that owns its customType. */
export interface ReadCustomEntry {
  /** The owning plugin's name. */
  readonly plugin: string;
  readonly type: AnyCustomType;
  readonly entry: CustomEntry | CustomMessageEntry;
  readonly decoded: Either<CustomDataProblem, DecodedPayload<unknown>>;
}

/** Invalid custom data found in a session: the entry is kept, and reported here. */
export interface PluginDiagnostic {
  /** The plugin that owns the customType. */
  readonly plugin: string;
  readonly entryType: "custom" | "custom_message";
  readonly customType: string;
  readonly entryId: string;
  /** Position of the entry in file order. */
  readonly position: number;
  /** 1-based file line, when the session was loaded from a file (set by the plugin host). */
  readonly line?: number;
  readonly kind: CustomDataProblemKind;
  readonly issues: readonly SchemaIssue[];
  /** One line, e.g. `custom entry "todo" v1: data.title: expected string, got number 3`. */
  readonly message: string;
}
