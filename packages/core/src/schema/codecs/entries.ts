/**
 * Codecs for the entry types of SPEC §3.2, the registry that maps each wire `type` to its
 * codec, and the open entry codec that keeps unknown types (SPEC §2.6).
 *
 * Every entry carries the common fields of SPEC §3.1. The registry is a plain record so that a
 * plugin's entry type can be added the same way as a built-in one:
 * `createEntryCodec({ ...ENTRY_CODECS, my_type: MyEntryCodec })`.
 */

import * as t from "io-ts";
import {
  type IdCodec,
  type MemberOf,
  NullableString,
  objectCodec,
  open,
  orNull,
  TaggedDispatchType,
  type WithOpaque,
  widerAtRuntime,
} from "./combinators.js";
import { ContextEditableContentCodec, UserContentCodec } from "./content-blocks.js";
import { AgentMessageCodec, SystemMessageCodec } from "./messages.js";
import { UsageCodec } from "./usage.js";

/** The fields every entry has (SPEC §3.1), without `type`. */
const common = { id: t.string, parentId: NullableString, timestamp: t.string };

/** Checks the fields every entry has, `type` included (SPEC §3.1). */
const EntryBaseCodec = objectCodec("UnknownEntry", { type: t.string, ...common });

/** Fields every entry carries. */
export type SessionEntryBase = t.TypeOf<typeof EntryBaseCodec>;

/** A registry of entry codecs keyed by wire `type` (built-ins, plus any a plugin adds). */
export type EntryCodecMap = Readonly<Record<string, t.Decoder<unknown, SessionEntryBase>>>;

/** `message`: one conversation message. */
export const SessionMessageEntryCodec = objectCodec("SessionMessageEntry", {
  type: t.literal("message"),
  ...common,
  message: AgentMessageCodec,
});

/** A conversation message. */
export type SessionMessageEntry = t.TypeOf<typeof SessionMessageEntryCodec>;

/** `thinking_level_change`: a free-form level such as `off` or `high`. */
export const ThinkingLevelChangeEntryCodec = objectCodec("ThinkingLevelChangeEntry", {
  type: t.literal("thinking_level_change"),
  ...common,
  thinkingLevel: t.string,
});

/** The thinking level changed. */
export type ThinkingLevelChangeEntry = t.TypeOf<typeof ThinkingLevelChangeEntryCodec>;

/** `model_change`: provider and model id. */
export const ModelChangeEntryCodec = objectCodec("ModelChangeEntry", {
  type: t.literal("model_change"),
  ...common,
  provider: t.string,
  modelId: t.string,
});

/** The model changed. */
export type ModelChangeEntry = t.TypeOf<typeof ModelChangeEntryCodec>;

/** [R1.6] `usage`: usage outside the conversation. `kind` is open (consumers accept any). */
export const UsageEntryCodec = objectCodec(
  "UsageEntry",
  {
    type: t.literal("usage"),
    ...common,
    kind: t.string,
    provider: t.string,
    model: t.string,
    usage: UsageCodec,
  },
  { note: t.string },
);

/** [R1.6] Usage attributed to a model outside the conversation. */
export type UsageEntry = t.TypeOf<typeof UsageEntryCodec>;

/**
 * `compaction`. `firstKeptEntryId` is declared required but may be missing after a v1
 * migration (SPEC §2.4, §3.2), so it is only type-checked when present. `details` is opaque.
 */
export const CompactionEntryCodec = objectCodec(
  "CompactionEntry",
  { type: t.literal("compaction"), ...common, summary: t.string, tokensBefore: t.number },
  {
    details: t.unknown,
    usage: UsageCodec,
    fromHook: t.boolean,
    systemMessage: SystemMessageCodec,
  },
  { firstKeptEntryId: t.string },
);

/** History before `firstKeptEntryId` was summarised; `T` names its `details`. */
export type CompactionEntry<T = unknown> = WithOpaque<
  t.TypeOf<typeof CompactionEntryCodec>,
  "details",
  T
>;

/** `branch_summary`. `fromId` is the literal `"root"` when the old leaf was null. */
export const BranchSummaryEntryCodec = objectCodec(
  "BranchSummaryEntry",
  { type: t.literal("branch_summary"), ...common, fromId: t.string, summary: t.string },
  { details: t.unknown, usage: UsageCodec, fromHook: t.boolean },
);

/** Summary of the branch that was left when the leaf moved; `T` names its `details`. */
export type BranchSummaryEntry<T = unknown> = WithOpaque<
  t.TypeOf<typeof BranchSummaryEntryCodec>,
  "details",
  T
>;

/** `custom`: extension state, never sent to the model. `data` is opaque. */
export const CustomEntryCodec = objectCodec(
  "CustomEntry",
  { type: t.literal("custom"), ...common, customType: t.string },
  { data: t.unknown },
);

/** Extension state that never reaches the model; `T` names its `data`. */
export type CustomEntry<T = unknown> = WithOpaque<t.TypeOf<typeof CustomEntryCodec>, "data", T>;

/** `custom_message`: extension content that reaches the model. `details` is opaque. */
export const CustomMessageEntryCodec = objectCodec(
  "CustomMessageEntry",
  {
    type: t.literal("custom_message"),
    ...common,
    customType: t.string,
    content: UserContentCodec,
    display: t.boolean,
  },
  { details: t.unknown },
);

/** Extension content that reaches the model; `T` names its `details`. */
export type CustomMessageEntry<T = unknown> = WithOpaque<
  t.TypeOf<typeof CustomMessageEntryCodec>,
  "details",
  T
>;

/**
 * `label`. The type says `string | undefined`; SPEC §3.2 says a cleared label is written as
 * given, so the key may be absent and `null` is accepted too (all falsy values clear, §7.10).
 */
export const LabelEntryCodec = objectCodec(
  "LabelEntry",
  { type: t.literal("label"), ...common, targetId: t.string },
  {},
  { label: widerAtRuntime<string | undefined>(t.union([t.string, t.null], "string | null")) },
);

/** A bookmark on an entry; a falsy label clears it. */
export type LabelEntry = t.TypeOf<typeof LabelEntryCodec>;

/** `session_info`: the display name (may be `""`). */
export const SessionInfoEntryCodec = objectCodec(
  "SessionInfoEntry",
  { type: t.literal("session_info"), ...common },
  { name: t.string },
);

/** Session metadata (display name). */
export type SessionInfoEntry = t.TypeOf<typeof SessionInfoEntryCodec>;

/** [R1.6] `context_edit`: `replacement` is `null` (drop the target) or `{content}`. */
export const ContextEditEntryCodec = objectCodec("ContextEditEntry", {
  type: t.literal("context_edit"),
  ...common,
  targetId: t.string,
  replacement: orNull(
    objectCodec("ContextEditReplacement", { content: ContextEditableContentCodec }),
  ),
});

/** [R1.6] Append-only change to one earlier entry's contribution to context. */
export type ContextEditEntry = t.TypeOf<typeof ContextEditEntryCodec>;

/**
 * The built-in entry codecs keyed by wire `type`, in SPEC §3.2 order. Frozen; extend by
 * spreading into a new record and passing it to {@link createEntryCodec}.
 */
export const ENTRY_CODECS = Object.freeze({
  message: SessionMessageEntryCodec,
  thinking_level_change: ThinkingLevelChangeEntryCodec,
  model_change: ModelChangeEntryCodec,
  compaction: CompactionEntryCodec,
  branch_summary: BranchSummaryEntryCodec,
  custom: CustomEntryCodec,
  custom_message: CustomMessageEntryCodec,
  label: LabelEntryCodec,
  session_info: SessionInfoEntryCodec,
  usage: UsageEntryCodec,
  context_edit: ContextEditEntryCodec,
} as const satisfies EntryCodecMap);

/** Every entry type the format defines: one per {@link ENTRY_CODECS} member. */
export type SessionEntry = MemberOf<typeof ENTRY_CODECS>;

/** The wire names of the built-in entry types. */
export type SessionEntryType = SessionEntry["type"];

/** The wire names of the built-in entry types, in SPEC §3.2 order. */
export const KNOWN_ENTRY_TYPES: readonly SessionEntryType[] = Object.freeze(
  Object.keys(ENTRY_CODECS) as SessionEntryType[],
);

/** True if `type` is a built-in entry type. */
export function isKnownEntryType(type: string): type is SessionEntryType {
  return Object.hasOwn(ENTRY_CODECS, type);
}

/**
 * True if a decoded entry is of a built-in type. For a value from `decodeEntry` (or
 * {@link SessionEntryCodec}) that also means its known fields were checked.
 */
export function isKnownEntry(entry: SessionEntry | UnknownEntry): entry is SessionEntry {
  return isKnownEntryType(entry.type);
}

/** Checks the common fields of an entry of unknown type and keeps the rest. */
export const UnknownEntryCodec = open(EntryBaseCodec);

/**
 * An entry whose `type` has no codec (a newer version's type, or a plugin's that is not
 * registered). It has the common fields; everything else is kept as it is (SPEC §2.6).
 */
export type UnknownEntry = t.TypeOf<typeof UnknownEntryCodec>;

/** The entry type a registry decodes to: one of its members, or an unknown entry. */
export type EntryOf<M extends EntryCodecMap> =
  | { [K in keyof M]: M[K] extends t.Decoder<unknown, infer A> ? A : never }[keyof M]
  | UnknownEntry;

/**
 * An entry codec over a registry: dispatches on `type` to the registered codec, and checks an
 * unregistered type as an {@link UnknownEntry}.
 */
export function createEntryCodec<M extends EntryCodecMap>(
  codecs: M,
  name = "SessionEntry",
): IdCodec<EntryOf<M>> {
  return new TaggedDispatchType<EntryOf<M>>(name, "type", codecs, UnknownEntryCodec);
}

/**
 * Any entry: a built-in type checked by its codec, or an {@link UnknownEntry}. An entry whose
 * `type` is known but whose fields are wrong is an error, never an unknown entry.
 */
export const SessionEntryCodec: IdCodec<SessionEntry | UnknownEntry> =
  createEntryCodec(ENTRY_CODECS);
