/**
 * The few io-ts building blocks the schema codecs share.
 *
 * Every codec here checks a value and hands back the very same object when it is valid: no
 * field is added, stripped or copied (io-ts `t.type`/`t.partial`/`t.array` return their input
 * unchanged when nothing in it was transformed). That is how unknown fields survive a decode
 * (SPEC §2.6). Nothing here transforms, so every `encode` is the identity.
 *
 * The module is internal to `schema/codecs`; only the codecs built with it are public.
 */

import { isRight } from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/** Makes an intersection of object types display (and compare) as one object type. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * `A` with its opaque field `K` (an extension's `data` or `details`) typed as `T`: the generic
 * entry and message types (`CustomEntry<T>`, …) let an extension name its own payload while the
 * codec, which cannot know it, checks nothing inside it.
 */
export type WithOpaque<A, K extends keyof A, T> = Simplify<Omit<A, K> & { [P in K]?: T }>;

/** The union of the types a registry's codecs decode to. */
export type MemberOf<M> = {
  [K in keyof M]: M[K] extends t.Decoder<unknown, infer A> ? A : never;
}[keyof M];

/**
 * Static type of {@link objectCodec}: required, optional, and "required in the type but may be
 * missing on read" props.
 */
export type ObjectOf<R extends t.Props, O extends t.Props, M extends t.Props> = Simplify<
  t.TypeOfProps<R> & t.TypeOfPartialProps<O> & t.TypeOfProps<M>
>;

/** A codec that never changes what it decodes, so its output type is its decoded type. */
export type IdCodec<A> = t.Type<A, A, unknown>;

/**
 * An object codec with unknown fields kept: `t.type(required)` plus `t.partial(optional)`.
 *
 * `missingOk` props are checked like optional ones at run time (absent is fine, a wrong type
 * is not) but typed as *required* keys, because writers always write them while SPEC or real
 * files say they can be absent on read (each use says why). They cannot go in `t.type`:
 * io-ts copies the object to add an explicit `undefined` for a missing key, and the decoded
 * value would no longer be the input.
 *
 * The runtime codec is a plain `t.intersection` named `name` (both members carry the same name
 * so issues say `Usage`, not io-ts's generated `{ input: number, … }`).
 */
export function objectCodec<
  R extends t.Props,
  O extends t.Props = Record<never, never>,
  M extends t.Props = Record<never, never>,
>(name: string, required: R, optional?: O, missingOk?: M): IdCodec<ObjectOf<R, O, M>> {
  const loose = { ...optional, ...missingOk };
  const codec =
    Object.keys(loose).length === 0
      ? t.type(required, name)
      : t.intersection([t.type(required, name), t.partial(loose, name)], name);
  // The cast only re-types `missingOk` keys as required (see above); the runtime is unchanged.
  return codec as unknown as IdCodec<ObjectOf<R, O, M>>;
}

/**
 * Re-types `runtime` as `A`: for the few fields where SPEC lets the file hold more than the
 * static type admits (e.g. `label: null`) or where the static type is a named subset of what is
 * checked (`StopReason`). Each use cites SPEC or says why.
 */
export function widerAtRuntime<A>(runtime: t.Mixed): IdCodec<A> {
  return runtime as IdCodec<A>;
}

/**
 * Types `codec`'s value as open (any extra field, of any type), for the records whose
 * versions add fields the session layer passes on without reading. The runtime is unchanged:
 * every codec here keeps unknown fields; this only lets the static type say so.
 */
export function open<A>(codec: IdCodec<A>): IdCodec<A & { [extra: string]: unknown }> {
  return codec as IdCodec<A & { [extra: string]: unknown }>;
}

/**
 * Chooses one of two codecs with a cheap test, so a failure is reported by that branch only.
 * (`t.union` reports every member's failure, which buries the real issue under noise.)
 */
export function choice<A, B>(
  name: string,
  test: (u: unknown) => boolean,
  ifTrue: IdCodec<A>,
  ifFalse: IdCodec<B>,
): IdCodec<A | B> {
  const pick = (u: unknown): IdCodec<A> | IdCodec<B> => (test(u) ? ifTrue : ifFalse);
  return new t.Type<A | B, A | B, unknown>(
    name,
    (u): u is A | B => pick(u).is(u),
    (u, c) => {
      const codec = pick(u);
      // The empty key adds no path segment but records which codec checked the value.
      return codec.validate(u, t.appendContext(c, "", codec, u));
    },
    t.identity,
  );
}

/** `null`, or a value `codec` accepts; named `<codec> | null`. */
export function orNull<A>(codec: IdCodec<A>): IdCodec<A | null> {
  return choice(`${codec.name} | null`, (u) => u === null, t.null, codec);
}

/** A string, or a value `codec` accepts (used for `content: string | block[]`). */
export function stringOr<A>(name: string, codec: IdCodec<A>): IdCodec<string | A> {
  return choice(name, (u) => typeof u === "string", t.string, codec);
}

/** `string | null`, as `parentId` and `fromId` are. */
export const NullableString: IdCodec<string | null> = orNull(t.string);

/** Any plain object (contents opaque), named `object` in issues. */
export const AnyObject: IdCodec<Record<string, unknown>> = new t.Type<
  Record<string, unknown>,
  Record<string, unknown>,
  unknown
>("object", t.UnknownRecord.is, t.UnknownRecord.validate, t.identity);

/** Any array (contents opaque), named `unknown[]` in issues. */
export const AnyArray: IdCodec<unknown[]> = new t.Type<unknown[], unknown[], unknown>(
  "unknown[]",
  t.UnknownArray.is,
  t.UnknownArray.validate,
  t.identity,
);

/** What a {@link TaggedDispatchType} does with an object whose tag it has no codec for. */
export type UnknownTagPolicy =
  /** Accept it as it is (SPEC §2.6: unknown roles and blocks pass through). */
  | "keep"
  /** Check it with this codec (unknown entry types still need id/parentId/timestamp). */
  | t.Decoder<unknown, unknown>;

/** Plain (JSON-like) object test, the same one io-ts uses: arrays and `null` are not. */
export function isPlainRecord(u: unknown): u is Record<string, unknown> {
  return Object.prototype.toString.call(u) === "[object Object]";
}

/**
 * An open tagged union: reads `tagKey`, looks its codec up in `members`, and validates with that
 * one codec only. Unknown tags follow `unknownTag`. A lookup instead of `t.union` keeps decoding
 * one value cheap and its errors specific to the member that applies.
 *
 * The caller states the static type `A`: the union of the members' types ({@link MemberOf}),
 * plus the fallback codec's type if there is one. With `"keep"`, values with an unknown tag are
 * accepted but not part of `A`: the static unions are closed, so consumers must keep a default
 * branch for tags they do not know (they exist at run time, SPEC §2.6).
 *
 * @param name - names the union in issues (`expected SessionEntry`).
 * @param tagKey - the discriminating field: `type` for entries and blocks, `role` for messages.
 * @param members - codec per tag value.
 * @param unknownTag - what to do with a string tag that has no member.
 */
export class TaggedDispatchType<A> extends t.Type<A, A, unknown> {
  /** Lets issue paths treat the tag key as a field of this object. */
  readonly _tag = "TaggedDispatchType" as const;
  /** The codec registered for each tag value. */
  readonly members: ReadonlyMap<string, t.Decoder<unknown, unknown>>;

  constructor(
    name: string,
    readonly tagKey: string,
    members: Readonly<Record<string, t.Decoder<unknown, unknown>>>,
    readonly unknownTag: UnknownTagPolicy,
  ) {
    // A Map, not the record: a tag such as "constructor" or "__proto__" must not find
    // Object.prototype members.
    const lookup = new Map(Object.entries(members));
    const tagCodec = new t.Type<string, string, unknown>(
      `string (${name} ${tagKey})`,
      t.string.is,
      t.string.validate,
      t.identity,
    );
    const codecFor = (tag: string) => lookup.get(tag) ?? unknownTag;
    super(
      name,
      (u): u is A => {
        if (!isPlainRecord(u)) return false;
        const tag = u[tagKey];
        if (typeof tag !== "string") return false;
        const codec = codecFor(tag);
        if (codec === "keep") return true;
        return codec instanceof t.Type ? codec.is(u) : isRight(codec.decode(u));
      },
      (u, c) => {
        if (!isPlainRecord(u)) return t.failure(u, c);
        const tag = u[tagKey];
        if (typeof tag !== "string") {
          return t.failure(tag, t.appendContext(c, tagKey, tagCodec, tag));
        }
        const codec = codecFor(tag);
        // "keep": SPEC §2.6, an unknown tag passes through as it is (see the class comment).
        if (codec === "keep") return t.success(u as A);
        // Sound by construction: A is the union of the members' output types. The empty key
        // adds no path segment but records which member checked the value.
        return codec.validate(u, t.appendContext(c, "", codec, u)) as t.Validation<A>;
      },
      t.identity,
    );
    this.members = lookup;
  }
}
