/**
 * What stands in for a record the index did not read: an entry built from its row's columns
 * (tree links, type, time, a message's role and model), enough for core's tree and for the
 * model and thinking settings of a context; and which rows need their record read instead.
 */

import type { SessionEntry } from "@pi-sessions/core";
import type { QueryRow } from "./session-rows.js";

/** Whether a row's columns cannot stand in for its record in the tree (a missing type or time). */
export function needsTreeRecord(row: QueryRow): boolean {
  return (
    row.type === null || row.timestamp === null || (row.type === "message" && row.role === null)
  );
}

/** Whether a row's columns cannot stand in for its record (a missing type, time or model). */
export function needsRecord(row: QueryRow): boolean {
  if (row.type === null || row.timestamp === null) return true;
  if (row.type !== "message") return false;
  if (row.role === null) return true;
  return row.role === "assistant" && (row.provider === null || row.model === null);
}

/** What stands in for a record: its tree links, type and time, and a message's role and model. */
export function standIn(row: QueryRow): SessionEntry {
  const head = { type: row.type, id: row.id, parentId: row.parentId, timestamp: row.timestamp };
  if (row.type !== "message") return head as unknown as SessionEntry;
  const message =
    row.role === "assistant"
      ? { role: row.role, provider: row.provider, model: row.model }
      : { role: row.role };
  return { ...head, message } as unknown as SessionEntry;
}
