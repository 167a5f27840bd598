/**
 * The decoding API: header, entry, record and message decoders that never throw and report
 * tagged {@link SchemaIssue}s. A valid value is returned as the very same object, unknown
 * fields included.
 */

import type { Either } from "fp-ts/lib/Either.js";
import { type IdCodec, TaggedDispatchType } from "./combinators.js";
import {
  ENTRY_CODECS,
  type SessionEntry,
  SessionEntryCodec,
  type UnknownEntry,
  UnknownEntryCodec,
} from "./entries.js";
import { type SessionHeader, SessionHeaderCodec } from "./header.js";
import { decodeWith, type SchemaIssue } from "./issues.js";
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
export function decodeHeader(u: unknown): Either<SchemaIssue[], SessionHeader> {
  return decodeWith(SessionHeaderCodec, u);
}

/**
 * Decodes an entry: a built-in type is checked by its codec, any other string `type` with the
 * common fields is an {@link UnknownEntry} (SPEC §2.6).
 */
export function decodeEntry(u: unknown): Either<SchemaIssue[], SessionEntry | UnknownEntry> {
  return decodeWith(SessionEntryCodec, u);
}

/** Decodes any record: a header when `type` is `"session"`, an entry otherwise. */
export function decodeRecord(
  u: unknown,
): Either<SchemaIssue[], SessionHeader | SessionEntry | UnknownEntry> {
  return decodeWith(FileEntryCodec, u);
}

/**
 * Decodes a message on its own (for example the `message` of a v1 entry, which has no id yet).
 * Unknown roles are kept.
 */
export function decodeMessage(u: unknown): Either<SchemaIssue[], AgentMessage> {
  return decodeWith(AgentMessageCodec, u);
}
