/**
 * Codecs for the entry types of SPEC §3.2 in a registry keyed by wire `type`, and the open codec
 * that keeps unknown types (SPEC §2.6). The registry is a plain record so that a plugin's type
 * is added as a built-in one is: `createEntryCodec({ ...ENTRY_CODECS, my_type: MyCodec })`.
 */

import * as t from "io-ts";
import {
  type IdCodec,
  type MemberOf,
  NullableString,
  objectCodec,
  open,
  orNull,
  taggedUnion,
  type WithOpaque,
  widerAtRuntime,
} from "./combinators.js";
import { ContextEditableContentCodec, UserContentCodec } from "./content-blocks.js";
import { AgentMessageCodec, SystemMessageCodec } from "./messages.js";
import { UsageCodec } from "./usage.js";

/** The fields every entry has (SPEC §3.1), without `type`. */
const common = { id: t.string, parentId: NullableString, timestamp: t.string };

/** Checks the fields every entry has, `type` included. */
const EntryBaseCodec = objectCodec("UnknownEntry", { type: t.string, ...common });

/** Fields every entry carries. */
export type SessionEntryBase = t.TypeOf<typeof EntryBaseCodec>;

/** A registry of entry codecs keyed by wire `type` (built-ins, plus any a plugin adds). */
export type EntryCodecMap = Readonly<Record<string, t.Decoder<unknown, SessionEntryBase>>>;

/** An entry codec named `name`: `type`, the common fields, then the type's own fields. */
function entry<
  K extends string,
  R extends t.Props,
  O extends t.Props = Record<never, never>,
  M extends t.Props = Record<never, never>,
>(name: string, type: K, required: R, optional?: O, missingOk?: M) {
  return objectCodec(name, { type: t.literal(type), ...common, ...required }, optional, missingOk);
}

/**
 * The codec of an entry type of one's own, made as the built-ins' are: `type` the literal
 * `type`, the fields every entry has (`id`, `parentId`, `timestamp`), then `required` and
 * `optional` fields, unknown fields kept — the codec a `defineEntryType` usually takes, so a
 * definition names only what is its own.
 */
export function entryCodec<
  K extends string,
  R extends t.Props,
  O extends t.Props = Record<never, never>,
>(
  type: K,
  required: R,
  optional?: O,
): t.Type<
  { type: K; id: string; parentId: string | null; timestamp: string } & t.TypeOfProps<R> &
    t.TypeOfPartialProps<O>,
  { type: K; id: string; parentId: string | null; timestamp: string } & t.TypeOfProps<R> &
    t.TypeOfPartialProps<O>,
  unknown
> {
  return entry(`${type} entry`, type, required, optional);
}

/** What both summary entries may carry besides the summary. */
const summaryExtras = { details: t.unknown, usage: UsageCodec, fromHook: t.boolean };

/** The built-in entry codecs by wire `type` (SPEC §3.2 order), frozen: spread them to extend. */
export const ENTRY_CODECS = Object.freeze({
  message: entry("SessionMessageEntry", "message", { message: AgentMessageCodec }),
  thinking_level_change: entry("ThinkingLevelChangeEntry", "thinking_level_change", {
    thinkingLevel: t.string,
  }),
  model_change: entry("ModelChangeEntry", "model_change", {
    provider: t.string,
    modelId: t.string,
  }),
  // `firstKeptEntryId` is declared required but may be missing after a v1 migration (SPEC
  // §2.4, §3.2), so it is only type-checked when present.
  compaction: entry(
    "CompactionEntry",
    "compaction",
    { summary: t.string, tokensBefore: t.number },
    { ...summaryExtras, systemMessage: SystemMessageCodec },
    { firstKeptEntryId: t.string },
  ),
  branch_summary: entry(
    "BranchSummaryEntry",
    "branch_summary",
    { fromId: t.string, summary: t.string },
    summaryExtras,
  ),
  custom: entry("CustomEntry", "custom", { customType: t.string }, { data: t.unknown }),
  custom_message: entry(
    "CustomMessageEntry",
    "custom_message",
    { customType: t.string, content: UserContentCodec, display: t.boolean },
    { details: t.unknown },
  ),
  // The type says `string | undefined`; SPEC §3.2 writes a cleared label as given, so the key
  // may be absent and `null` is accepted too (all falsy values clear, §7.10).
  label: entry(
    "LabelEntry",
    "label",
    { targetId: t.string },
    {},
    { label: widerAtRuntime<string | undefined>(t.union([t.string, t.null], "string | null")) },
  ),
  session_info: entry("SessionInfoEntry", "session_info", {}, { name: t.string }),
  usage: entry(
    "UsageEntry",
    "usage",
    { kind: t.string, provider: t.string, model: t.string, usage: UsageCodec },
    { note: t.string },
  ),
  context_edit: entry("ContextEditEntry", "context_edit", {
    targetId: t.string,
    replacement: orNull(
      objectCodec("ContextEditReplacement", { content: ContextEditableContentCodec }),
    ),
  }),
} as const satisfies EntryCodecMap);

/** A conversation message. */
export type SessionMessageEntry = t.TypeOf<typeof ENTRY_CODECS.message>;
/** The thinking level changed (a free-form level such as `off` or `high`). */
export type ThinkingLevelChangeEntry = t.TypeOf<typeof ENTRY_CODECS.thinking_level_change>;
/** The model changed. */
export type ModelChangeEntry = t.TypeOf<typeof ENTRY_CODECS.model_change>;
/** History before `firstKeptEntryId` was summarised; `T` names its `details`. */
export type CompactionEntry<T = unknown> = WithOpaque<typeof ENTRY_CODECS.compaction, T>;
/** The branch left when the leaf moved (`fromId: "root"` from a null leaf); `T` names `details`. */
export type BranchSummaryEntry<T = unknown> = WithOpaque<typeof ENTRY_CODECS.branch_summary, T>;
/** Extension state that never reaches the model; `T` names its `data`. */
export type CustomEntry<T = unknown> = WithOpaque<typeof ENTRY_CODECS.custom, T, "data">;
/** Extension content that reaches the model; `T` names its `details`. */
export type CustomMessageEntry<T = unknown> = WithOpaque<typeof ENTRY_CODECS.custom_message, T>;
/** A bookmark on an entry; a falsy label clears it. */
export type LabelEntry = t.TypeOf<typeof ENTRY_CODECS.label>;
/** Session metadata: the display name (may be `""`). */
export type SessionInfoEntry = t.TypeOf<typeof ENTRY_CODECS.session_info>;
/** [R1.6] Usage attributed to a model outside the conversation; any `kind` is accepted. */
export type UsageEntry = t.TypeOf<typeof ENTRY_CODECS.usage>;
/** [R1.6] Append-only change to one earlier entry's context; `replacement: null` drops it. */
export type ContextEditEntry = t.TypeOf<typeof ENTRY_CODECS.context_edit>;

/** Every entry type the format defines: one per {@link ENTRY_CODECS} member. */
export type SessionEntry = MemberOf<typeof ENTRY_CODECS>;

/** The wire names of the built-in entry types. */
export type SessionEntryType = SessionEntry["type"];

/** Checks the common fields of an entry of unknown type and keeps the rest. */
export const UnknownEntryCodec = open(EntryBaseCodec);

/** An entry whose `type` has no codec (newer, or an unregistered plugin's): kept (SPEC §2.6). */
export type UnknownEntry = t.TypeOf<typeof UnknownEntryCodec>;

/** An entry codec over a registry; an unregistered type is checked as an {@link UnknownEntry}. */
export function createEntryCodec<M extends EntryCodecMap>(
  codecs: M,
  name = "SessionEntry",
): IdCodec<MemberOf<M> | UnknownEntry> {
  return taggedUnion<MemberOf<M> | UnknownEntry>(name, "type", codecs, UnknownEntryCodec);
}

/** Any entry; a known `type` with wrong fields is an error, never an {@link UnknownEntry}. */
export const SessionEntryCodec = createEntryCodec(ENTRY_CODECS);
