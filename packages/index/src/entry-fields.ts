/**
 * What the index keeps of one record of a session file besides its place: the columns the
 * queries filter on (type, role, model, time), the usage numbers, and the text full-text search
 * looks in. Pure: a record in, a row out; unknown shapes give empty columns, never an error.
 */

import { ENTRY_TYPES, isBuiltInEntryType, isSearchedRole } from "@pi-sessions/core";
import {
  asFiniteNumber,
  asString,
  isJsonRecord,
  type JsonRecord,
  messageText,
} from "@pi-sessions/core/internal";

/** The indexed columns of one record (`null` where the record has no such field). */
export interface EntryFields {
  readonly id: string | null;
  readonly parentId: string | null;
  readonly type: string | null;
  readonly role: string | null;
  readonly timestamp: string | null;
  /** The entry's time in ms since the epoch (its `timestamp`), for date filters. */
  readonly timeMs: number | null;
  readonly provider: string | null;
  readonly model: string | null;
  readonly input: number | null;
  readonly output: number | null;
  readonly cacheRead: number | null;
  readonly cacheWrite: number | null;
  readonly totalTokens: number | null;
  readonly cost: number | null;
  /** The searchable text: `""` for records with none. */
  readonly text: string;
}

/**
 * The text of a record for search: core's message text (text blocks, or a string) of the
 * `content` of a type whose definition keeps its text there (`custom_message`), else of its
 * message. Any record's message is searched, as before, so an unknown type carrying one is found.
 */
function searchText(type: unknown, record: JsonRecord, message: JsonRecord | undefined): string {
  if (isBuiltInEntryType(type) && ENTRY_TYPES[type].searchText === "content") {
    return messageText(record.content);
  }
  if (message === undefined || !isSearchedRole(message.role)) return "";
  return messageText(message.content);
}

/** The columns of one record (any JSON object after the header). */
export function entryFields(record: JsonRecord): EntryFields {
  const message = isJsonRecord(record.message) ? record.message : undefined;
  const usage = message !== undefined && isJsonRecord(message.usage) ? message.usage : undefined;
  const cost = usage !== undefined && isJsonRecord(usage.cost) ? usage.cost : undefined;
  const timestamp = asString(record.timestamp) ?? null;
  const time = timestamp === null ? Number.NaN : Date.parse(timestamp);
  const isModelChange = record.type === "model_change";
  return {
    id: asString(record.id) ?? null,
    parentId: asString(record.parentId) ?? null,
    type: asString(record.type) ?? null,
    // A custom_message entry carries its content itself; search finds it under role "custom".
    role:
      message === undefined
        ? record.type === "custom_message"
          ? "custom"
          : null
        : (asString(message.role) ?? null),
    timestamp,
    timeMs: Number.isNaN(time) ? null : time,
    provider: asString(isModelChange ? record.provider : message?.provider) ?? null,
    model: asString(isModelChange ? record.modelId : message?.model) ?? null,
    input: asFiniteNumber(usage?.input) ?? null,
    output: asFiniteNumber(usage?.output) ?? null,
    cacheRead: asFiniteNumber(usage?.cacheRead) ?? null,
    cacheWrite: asFiniteNumber(usage?.cacheWrite) ?? null,
    totalTokens: asFiniteNumber(usage?.totalTokens) ?? null,
    cost: asFiniteNumber(cost?.total) ?? null,
    text: searchText(record.type, record, message),
  };
}
