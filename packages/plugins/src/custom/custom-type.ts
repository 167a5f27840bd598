/**
 * Custom entry and message types: a `customType` bound to an io-ts codec, a version and the
 * upcasters that bring older payloads up to it.
 *
 * Where the version lives: in the key `v` of the payload's object — `data.v` for a `custom`
 * entry, `details.v` for a `custom_message` — and a missing `v` means version 1. Files are
 * never rewritten: an older payload is upcast each time it is read. The key `v` is therefore
 * reserved in the data of a custom type.
 */
import type { CustomEntry, CustomMessage, ImageContent, TextContent } from "@pi-sessions/core";
import { UserContentCodec } from "@pi-sessions/core/internal";
import type * as t from "io-ts";
import type { RenderContext } from "../render/types.js";

/** Turns a payload of version `n` into one of version `n + 1`; may throw on bad input. */
export type Upcaster = (older: unknown) => unknown;

/** Upcasters keyed by the version they upgrade FROM (`{ 1: v1ToV2, 2: v2ToV3 }`). */
export type Upcasters = Readonly<Record<number, Upcaster>>;

/** The content of a custom message as pi stores it. */
export type CustomContent = string | (TextContent | ImageContent)[];

/** What a custom message type decodes: the message's `content` and `details`. */
export interface CustomMessagePayload<D = unknown, C = CustomContent> {
  readonly content: C;
  readonly details: D;
}

/** A `custom` entry type (extension state that never reaches the model). */
export interface CustomEntryType<T extends string = string, A = unknown> {
  readonly kind: "custom";
  readonly customType: T;
  /** Decodes `data` of the current version. */
  readonly data: t.Decoder<unknown, A>;
  /** The current version (≥ 1). */
  readonly version: number;
  /** One upcaster for every older version. */
  readonly upcasters: Upcasters;
  /**
   * Typed renderer: gets the decoded (upcast) data; undefined falls back to the default.
   * (Method syntax, so a typed definition still fits a list of `CustomEntryType<string>`.)
   */
  render?(value: A, entry: CustomEntry, ctx: RenderContext): string | undefined;
}

/** A `custom_message` entry type (extension content that reaches the model). */
export interface CustomMessageType<T extends string = string, D = unknown, C = CustomContent> {
  readonly kind: "custom_message";
  readonly customType: T;
  /** Decodes `details` of the current version. */
  readonly details: t.Decoder<unknown, D>;
  /** Decodes `content` of the current version. */
  readonly content: t.Decoder<unknown, C>;
  /** The current version (≥ 1), kept in `details.v`. */
  readonly version: number;
  /** One upcaster for every older version; each maps a whole `{ content, details }`. */
  readonly upcasters: Upcasters;
  /** Typed renderer of the message (as built into the context or from its entry). */
  render?(
    value: CustomMessagePayload<D, C>,
    message: CustomMessage,
    ctx: RenderContext,
  ): string | undefined;
}

/** Either kind of custom type. `any` payloads: a list may mix types of any payload. */
// biome-ignore lint/suspicious/noExplicitAny: heterogeneous lists of typed definitions.
export type AnyCustomType = CustomEntryType<string, any> | CustomMessageType<string, any, any>;

/** Thrown by {@link customEntryType}, {@link customMessageType} and `definePlugin` for a bad definition. */
export class PluginDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PluginDefinitionError";
  }
}

function checkCommon(
  what: string,
  customType: unknown,
  codec: unknown,
  version: unknown,
  upcasters: Upcasters,
): void {
  if (typeof customType !== "string" || customType === "") {
    throw new PluginDefinitionError(`${what}: customType must be a non-empty string`);
  }
  const name = `${what} "${customType}"`;
  if (typeof (codec as { decode?: unknown } | null)?.decode !== "function") {
    throw new PluginDefinitionError(`${name}: codec must be an io-ts decoder`);
  }
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 1) {
    throw new PluginDefinitionError(`${name}: version must be an integer ≥ 1`);
  }
  for (let from = 1; from < version; from++) {
    if (typeof upcasters[from] !== "function") {
      throw new PluginDefinitionError(
        `${name}: missing the upcaster from v${from} to v${from + 1}`,
      );
    }
  }
  for (const key of Object.keys(upcasters)) {
    const from = Number(key);
    if (!Number.isSafeInteger(from) || from < 1 || from >= version) {
      throw new PluginDefinitionError(
        `${name}: upcaster "${key}" does not upgrade a version below v${version}`,
      );
    }
  }
}

/** Declares a `custom` entry type; checks the definition (throws {@link PluginDefinitionError}). */
export function customEntryType<const T extends string, A>(spec: {
  readonly customType: T;
  /** Decodes `data` of the current version. */
  readonly data: t.Decoder<unknown, A>;
  readonly version?: number;
  readonly upcasters?: Upcasters;
  readonly render?: CustomEntryType<T, A>["render"];
}): CustomEntryType<T, A> {
  const version = spec.version ?? 1;
  const upcasters = Object.freeze({ ...spec.upcasters });
  checkCommon("custom entry type", spec.customType, spec.data, version, upcasters);
  return Object.freeze({
    kind: "custom",
    customType: spec.customType,
    data: spec.data,
    version,
    upcasters,
    ...(spec.render ? { render: spec.render } : {}),
  });
}

/**
 * Declares a `custom_message` entry type from codecs for `details` and (optionally, default:
 * any pi custom-message content) `content`; checks the definition.
 */
export function customMessageType<const T extends string, D, C = CustomContent>(spec: {
  readonly customType: T;
  /** Decodes `details` of the current version. */
  readonly details: t.Decoder<unknown, D>;
  /** Decodes `content`; default: a string or text/image blocks. */
  readonly content?: t.Decoder<unknown, C>;
  readonly version?: number;
  readonly upcasters?: Upcasters;
  readonly render?: CustomMessageType<T, D, C>["render"];
}): CustomMessageType<T, D, C> {
  const version = spec.version ?? 1;
  const upcasters = Object.freeze({ ...spec.upcasters });
  checkCommon("custom message type", spec.customType, spec.details, version, upcasters);
  if (spec.content !== undefined && typeof spec.content?.decode !== "function") {
    throw new PluginDefinitionError(
      `custom message type "${spec.customType}": content must be an io-ts decoder`,
    );
  }
  // The default is pi's custom-message content; a caller's codec narrows it.
  const content = (spec.content ?? UserContentCodec) as t.Decoder<unknown, C>;
  return Object.freeze({
    kind: "custom_message",
    customType: spec.customType,
    details: spec.details,
    content,
    version,
    upcasters,
    ...(spec.render ? { render: spec.render } : {}),
  });
}
