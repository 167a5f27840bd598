/**
 * The decoding API: decoders that never throw and report tagged {@link SchemaIssue}s. A valid
 * value is returned as the very same object, unknown fields included.
 */

import * as E from "fp-ts/lib/Either.js";
import { taggedUnion } from "./combinators.js";
import {
  ENTRY_CODECS,
  type SessionEntry,
  SessionEntryCodec,
  type UnknownEntry,
  UnknownEntryCodec,
} from "./entries.js";
import { type SessionHeader, SessionHeaderCodec } from "./header.js";
import { decodeWith, formatSchemaIssue, type SchemaIssue } from "./issues.js";
import { type AgentMessage, AgentMessageCodec } from "./messages.js";

/** Any record of a file: the header or an entry. */
export type FileEntry = SessionHeader | SessionEntry;

/**
 * Any record of a file: the header (`type: "session"`), a built-in entry, or an unknown entry.
 * Which one a line must be (the header comes first) is the format layer's rule, not this one's.
 */
export const FileEntryCodec = taggedUnion<SessionHeader | SessionEntry | UnknownEntry>(
  "FileEntry",
  "type",
  { ...ENTRY_CODECS, session: SessionHeaderCodec },
  UnknownEntryCodec,
);

/** Decodes a header record (SPEC §2.2). */
export function decodeHeader(u: unknown): E.Either<SchemaIssue[], SessionHeader> {
  return decodeWith(SessionHeaderCodec, u);
}

/** Decodes an entry: a built-in type by its codec, any other as an {@link UnknownEntry}. */
export function decodeEntry(u: unknown): E.Either<SchemaIssue[], SessionEntry | UnknownEntry> {
  return decodeWith(SessionEntryCodec, u);
}

/**
 * Decodes any record, a header when `type` is `"session"`: the field-level check `check` runs
 * on every line (`message.usage.input: expected number, got "400"`). Unknown entry types,
 * roles, blocks and fields are accepted (SPEC §2.6); only an unknown type's common fields are
 * checked.
 */
export function decodeRecord(
  u: unknown,
): E.Either<SchemaIssue[], SessionHeader | SessionEntry | UnknownEntry> {
  return decodeWith(FileEntryCodec, u);
}

/** Decodes a message on its own (the `message` of a v1 entry, which has no id yet). */
export function decodeMessage(u: unknown): E.Either<SchemaIssue[], AgentMessage> {
  return decodeWith(AgentMessageCodec, u);
}

/** The field-level issues of one record, empty when it is valid (`check` lists them all). */
export function recordIssues(record: unknown): readonly SchemaIssue[] {
  return E.match(
    (issues: readonly SchemaIssue[]) => issues,
    () => [],
  )(decodeRecord(record));
}

/**
 * Why `entry` does not match its type's codec, as one line (`message.usage.input: expected
 * number, got "400"; …`), or undefined when it does. For the opt-in strict append, which
 * refuses such an entry before it is written; the default append checks nothing, to stay cheap.
 */
export function entryShapeProblem(entry: unknown): string | undefined {
  const describe = (issues: SchemaIssue[]) => issues.map(formatSchemaIssue).join("; ");
  return E.match(describe, () => undefined)(decodeEntry(entry));
}
