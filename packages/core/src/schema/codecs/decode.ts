/** The decoding API: decoders that never throw, giving the very object back or its issues. */

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
import { decodeWith, type SchemaIssue } from "./issues.js";
import { AgentMessageCodec } from "./messages.js";

/** Any record of a file: the header or an entry. */
export type FileEntry = SessionHeader | SessionEntry;

/** Any record: the header, a built-in or an unknown entry (which comes first is format's rule). */
export const FileEntryCodec = taggedUnion<SessionHeader | SessionEntry | UnknownEntry>(
  "FileEntry",
  "type",
  { ...ENTRY_CODECS, session: SessionHeaderCodec },
  UnknownEntryCodec,
);

/** Decodes a header record (SPEC §2.2). */
export const decodeHeader = (u: unknown) => decodeWith(SessionHeaderCodec, u);

/** Decodes an entry: a built-in type by its codec, any other as an {@link UnknownEntry}. */
export const decodeEntry = (u: unknown) => decodeWith(SessionEntryCodec, u);

/** Decodes any record, header or entry: the field-level check `check` runs on every line. */
export const decodeRecord = (u: unknown) => decodeWith(FileEntryCodec, u);

/** Decodes a message on its own (the `message` of a v1 entry, which has no id yet). */
export const decodeMessage = (u: unknown) => decodeWith(AgentMessageCodec, u);

/** The field-level issues of one record, empty when it is valid (`check` lists them all). */
export function recordIssues(record: unknown): readonly SchemaIssue[] {
  const result = decodeRecord(record);
  return E.isLeft(result) ? result.left : [];
}
