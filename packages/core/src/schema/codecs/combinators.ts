/**
 * The io-ts building blocks the schema codecs share. Every codec here hands back the very
 * object it checked (`t.type`/`t.partial`/`t.array` return their input when nothing inside was
 * transformed, and nothing here transforms): that is how unknown fields survive (SPEC §2.6).
 */

import { isRight } from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/** Makes an intersection of object types display (and compare) as one object type. */
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The type of codec `C` with its opaque field `K` (an extension's `details` or `data`) typed
 * as `T`: an extension names its own payload, which the codec cannot know and does not check.
 */
export type WithOpaque<
  C extends t.Any,
  T,
  K extends keyof t.TypeOf<C> = "details" & keyof t.TypeOf<C>,
> = Simplify<Omit<t.TypeOf<C>, K> & { [P in K]?: T }>;

/** The union of the types a registry's codecs decode to. */
export type MemberOf<M> = {
  [K in keyof M]: M[K] extends t.Decoder<unknown, infer A> ? A : never;
}[keyof M];

/** Static type of {@link objectCodec}. */
type ObjectOf<R extends t.Props, O extends t.Props, M extends t.Props> = Simplify<
  t.TypeOfProps<R> & t.TypeOfPartialProps<O> & t.TypeOfProps<M>
>;

/** A codec that never changes what it decodes, so its output type is its decoded type. */
export type IdCodec<A> = t.Type<A, A, unknown>;

/**
 * An object codec with unknown fields kept, named `name` so issues say `Usage`, not io-ts's
 * `{ input: number, … }`. `missingOk` props are checked like optional ones but typed as
 * required: writers write them, yet files may lack them (each use says why). `t.type` cannot
 * hold them: it copies the object to add `undefined` for a missing key.
 */
export function objectCodec<
  R extends t.Props,
  O extends t.Props = Record<never, never>,
  M extends t.Props = Record<never, never>,
>(name: string, required: R, optional?: O, missingOk?: M): IdCodec<ObjectOf<R, O, M>> {
  const loose = { ...optional, ...missingOk };
  const head = t.type(required, name);
  const none = Object.keys(loose).length === 0;
  const codec = none ? head : t.intersection([head, t.partial(loose, name)], name);
  // The cast only re-types `missingOk` keys as required (see above); the runtime is unchanged.
  return codec as unknown as IdCodec<ObjectOf<R, O, M>>;
}

/** Re-types `runtime` as `A`, where the file may hold more than `A` names (`label: null`). */
export function widerAtRuntime<A>(runtime: t.Mixed): IdCodec<A> {
  return runtime as IdCodec<A>;
}

/** Types `codec`'s value as open to extra fields the session layer passes on unread. */
export function open<A>(codec: IdCodec<A>): IdCodec<A & { [extra: string]: unknown }> {
  return codec as IdCodec<A & { [extra: string]: unknown }>;
}

/** `codec` under another name, as issues show it. */
function renamed<A>(name: string, codec: IdCodec<A>): IdCodec<A> {
  return new t.Type<A, A, unknown>(name, codec.is, codec.validate, t.identity);
}

/**
 * Checks a value with the one codec `pick` chooses (or keeps it, or fails), so a failure is
 * reported by that codec only: `t.union` reports every member's failure, burying the real one.
 */
class DispatchType<A> extends t.Type<A, A, unknown> {
  /** Lets issue paths treat a key under this codec (a union's tag) as a field name. */
  readonly _tag = "DispatchType" as const;

  constructor(
    name: string,
    pick: (u: unknown, c: t.Context) => t.Decoder<unknown, unknown> | "keep" | t.Validation<never>,
  ) {
    const validate = (u: unknown, c: t.Context): t.Validation<A> => {
      const chosen = pick(u, c);
      if (chosen === "keep") return t.success(u as A);
      if (!("validate" in chosen)) return chosen;
      // Sound by construction: A is the union of what the choices decode to. The empty key
      // adds no path segment but records which codec checked the value.
      return chosen.validate(u, t.appendContext(c, "", chosen, u)) as t.Validation<A>;
    };
    super(name, (u): u is A => isRight(validate(u, [])), validate, t.identity);
  }
}

/** `null`, or a value `codec` accepts; named `<codec> | null`. */
export function orNull<A>(codec: IdCodec<A>): IdCodec<A | null> {
  return new DispatchType(`${codec.name} | null`, (u) => (u === null ? t.null : codec));
}

/** A string, or a value `codec` accepts (used for `content: string | block[]`). */
export function stringOr<A>(name: string, codec: IdCodec<A>): IdCodec<string | A> {
  return new DispatchType(name, (u) => (typeof u === "string" ? t.string : codec));
}

/** `string | null`, as `parentId` and `fromId` are. */
export const NullableString: IdCodec<string | null> = orNull(t.string);

/** Any plain object (contents opaque), named `object` in issues. */
export const AnyObject: IdCodec<Record<string, unknown>> = renamed("object", t.UnknownRecord);

/** Any array (contents opaque), named `unknown[]` in issues. */
export const AnyArray: IdCodec<unknown[]> = renamed("unknown[]", t.UnknownArray);

/**
 * An open tagged union: checks the value with the codec in `members` for its `tagKey` only (a
 * lookup keeps decoding cheap and errors specific). Another string tag follows `unknownTag`:
 * `"keep"` accepts the value (SPEC §2.6: unknown roles and blocks pass through), a codec checks
 * it (unknown entry types still need id/parentId/timestamp). Kept values are not part of `A`:
 * the static unions are closed, so consumers keep a default branch.
 */
export function taggedUnion<A>(
  name: string,
  tagKey: string,
  members: Readonly<Record<string, t.Decoder<unknown, unknown>>>,
  unknownTag: t.Decoder<unknown, unknown> | "keep",
): IdCodec<A> {
  // A Map, not the record: a tag such as "constructor" must not find Object.prototype members.
  const lookup = new Map(Object.entries(members));
  const tagCodec = renamed(`string (${name} ${tagKey})`, t.string);
  return new DispatchType<A>(name, (u, c) => {
    if (!t.UnknownRecord.is(u)) return t.failure(u, c);
    const tag = u[tagKey];
    if (typeof tag !== "string") return t.failure(tag, t.appendContext(c, tagKey, tagCodec, tag));
    return lookup.get(tag) ?? unknownTag;
  });
}
