/**
 * What the index keeps of one record of a session file besides its place: the columns the
 * queries filter on (type, role, model, time), the usage numbers, and the text full-text search
 * looks in. Pure: a record in, a row out; unknown shapes give empty columns, never an error.
 */

import { ENTRY_TYPES, isBuiltInEntryType, isSearchedRole } from "@pi-sessions/core";
import { isJsonRecord, type JsonRecord, messageText } from "@pi-sessions/core/internal";

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

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const num = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

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
  const timestamp = str(record.timestamp);
  const time = timestamp === null ? Number.NaN : Date.parse(timestamp);
  const isModelChange = record.type === "model_change";
  return {
    id: str(record.id),
    parentId: str(record.parentId),
    type: str(record.type),
    // A custom_message entry carries its content itself; search finds it under role "custom".
    role:
      message === undefined
        ? record.type === "custom_message"
          ? "custom"
          : null
        : str(message.role),
    timestamp,
    timeMs: Number.isNaN(time) ? null : time,
    provider: str(isModelChange ? record.provider : message?.provider),
    model: str(isModelChange ? record.modelId : message?.model),
    input: num(usage?.input),
    output: num(usage?.output),
    cacheRead: num(usage?.cacheRead),
    cacheWrite: num(usage?.cacheWrite),
    totalTokens: num(usage?.totalTokens),
    cost: num(cost?.total),
    text: searchText(record.type, record, message),
  };
}
