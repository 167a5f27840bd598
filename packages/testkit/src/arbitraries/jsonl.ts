/**
 * Records to JSONL text, the way pi writes a file (SPEC §2.1): one compact `JSON.stringify`
 * line per record, each followed by `\n`.
 */
import type { SessionEntry, SessionHeader } from "@pi-sessions/core";

/** Records (header first, usually) as JSONL text. */
export function toJsonl(records: readonly unknown[]): string {
  let out = "";
  for (const r of records) out += `${JSON.stringify(r)}\n`;
  return out;
}

/** A header and its entries as the text of a session file. */
export function sessionToJsonl(
  header: SessionHeader | Record<string, unknown>,
  entries: readonly (SessionEntry | Record<string, unknown>)[],
): string {
  return toJsonl([header, ...entries]);
}

/** A generated, valid session: header, entries in file order, and the file's text. */
export interface SessionLog {
  readonly header: SessionHeader;
  /** Entries in file order (unknown entry types, when enabled, are cast to `SessionEntry`). */
  readonly entries: SessionEntry[];
  /** The file as pi writes it: the header line, then one line per entry. */
  readonly jsonl: string;
  /** The leaf after loading (SPEC §6.5 step 7): the last entry's id, or null when empty. */
  readonly leafId: string | null;
}
