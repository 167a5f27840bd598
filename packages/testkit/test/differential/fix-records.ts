/** Records the [Fix] comparisons with the reference build sessions from. */
import type { FileEntry } from "@pi-sessions/core";

/** The session header every record list starts with. */
export const H = {
  type: "session",
  version: 3,
  id: "s1",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/w",
};
/** A user-message entry with a fixed timestamp (so tree order is file order). */
export const msg = (id: string, parentId: string | null, text = id) => ({
  type: "message",
  id,
  parentId,
  timestamp: "2025-01-01T00:00:01.000Z",
  message: { role: "user", content: text, timestamp: 1 },
});
/** The header, then `entries`, as the records `inMemory` takes. */
export const records = (...entries: object[]) => [H, ...entries] as unknown as FileEntry[];
