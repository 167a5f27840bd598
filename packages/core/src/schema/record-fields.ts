/**
 * Reading records nothing has decoded yet. A loaded session's records are what the file holds:
 * `load-text.ts` sorts them by the record rules (a header, entries with a string id) without
 * decoding them by their codecs, as pi's loader does, so a field may hold any JSON value a
 * foreign writer or a damaged file put there. Whatever reads such a record field by field (a
 * summary line, an HTML body, an index row, an oracle) reads it through these, the one
 * definition of "a string field", "a number field" and "an object".
 */

import type { SessionEntry } from "./types.js";

/** A parsed JSON object: one record of a session file, header or entry. */
export type JsonRecord = Record<string, unknown>;

/** True for a plain JSON object (not `null`, not an array). */
export function isJsonRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An entry as read from its line, before any codec has decoded it: a JSON object (its `type`,
 * `id` and `parentId` included) whose fields may hold any value. Loaded entries are handed out
 * as `SessionEntry` (pi's API types them so); code that must not trust that reads a `LooseEntry`.
 */
export type LooseEntry = Readonly<JsonRecord>;

/**
 * A loaded entry handed out under pi's type without a decode: the one place a record the record
 * rules accepted (a JSON object with a string id after the header) becomes a `SessionEntry`, as
 * pi's loader hands its records out. Strict mode decodes appends; nothing decodes a load.
 */
export function loadedEntry(record: LooseEntry): SessionEntry {
  return record as unknown as SessionEntry;
}

/** `value` as a JSON object (not `null`, not an array), else undefined. */
export function asRecord(value: unknown): JsonRecord | undefined {
  return isJsonRecord(value) ? value : undefined;
}

/** `value` if it is a string, else undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `value` if it is a finite number, else undefined. */
export function asFiniteNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
