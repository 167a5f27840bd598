/**
 * The decoding API: header, entry, record and message decoders that never throw and report
 * tagged {@link SchemaIssue}s. A valid value is returned as the very same object, unknown
 * fields included.
 */

import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import { type IdCodec, TaggedDispatchType } from "./combinators.js";
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
export const FileEntryCodec: IdCodec<SessionHeader | SessionEntry | UnknownEntry> =
  new TaggedDispatchType<SessionHeader | SessionEntry | UnknownEntry>(
    "FileEntry",
    "type",
    { ...ENTRY_CODECS, session: SessionHeaderCodec },
    UnknownEntryCodec,
  );

/** Decodes a header record (SPEC §2.2). */
export function decodeHeader(u: unknown): E.Either<SchemaIssue[], SessionHeader> {
  return decodeWith(SessionHeaderCodec, u);
}

/**
 * Decodes an entry: a built-in type is checked by its codec, any other string `type` with the
 * common fields is an {@link UnknownEntry} (SPEC §2.6).
 */
export function decodeEntry(u: unknown): E.Either<SchemaIssue[], SessionEntry | UnknownEntry> {
  return decodeWith(SessionEntryCodec, u);
}

/**
 * Decodes any record: a header when `type` is `"session"`, an entry otherwise. This is the
 * field-level check `check` runs on every line: the issues name the field and what was there
 * (`message.usage.input: expected number, got "400"`); unknown entry types, roles, blocks and
 * fields are accepted (SPEC §2.6), only the common entry fields of an unknown type are checked.
 */
export function decodeRecord(
  u: unknown,
): E.Either<SchemaIssue[], SessionHeader | SessionEntry | UnknownEntry> {
  return decodeWith(FileEntryCodec, u);
}

/**
 * Decodes a message on its own (for example the `message` of a v1 entry, which has no id yet).
 * Unknown roles are kept.
 */
export function decodeMessage(u: unknown): E.Either<SchemaIssue[], AgentMessage> {
  return decodeWith(AgentMessageCodec, u);
}

/**
 * The field-level issues of one record ({@link decodeRecord}'s failures), empty when it is
 * valid: for reports that list every issue of every line, as `check` does.
 */
export function recordIssues(record: unknown): readonly SchemaIssue[] {
  return pipe(
    decodeRecord(record),
    E.fold(
      (issues): readonly SchemaIssue[] => issues,
      () => [],
    ),
  );
}

/**
 * Why `entry` does not match its type's codec, as one line (`message.usage.input: expected
 * number, got "400"; …`), or undefined when it does. For an opt-in strict append, which refuses
 * such an entry before it is written; the default append checks nothing, to stay cheap.
 */
export function entryShapeProblem(entry: unknown): string | undefined {
  return pipe(
    decodeEntry(entry),
    E.fold(
      (issues) => issues.map(formatSchemaIssue).join("; "),
      () => undefined,
    ),
  );
}
