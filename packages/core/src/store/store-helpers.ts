/** Small helpers the store and the manager share; they do no IO themselves. */
import { resolve } from "node:path";
import { serializeRecord } from "../format/serialize.js";
import type { SessionEntry, SessionHeader, SessionMessageEntry } from "../schema/types.js";
import { expandHome } from "./paths.js";

/** A `sessionDir` argument as the reference takes it: `~` expanded, then resolved. */
export function resolveSessionDir(dir: string): string {
  return resolve(expandHome(dir));
}

/** Whether an entry is a user or assistant message: what makes a pending session write (§6.2). */
export function isConversationEntry(entry: SessionEntry): boolean {
  if (entry.type !== "message") return false;
  const role = (entry as SessionMessageEntry).message?.role;
  return role === "user" || role === "assistant";
}

/** The serialised lines of a whole session file: the header, then every entry. */
export function sessionLines(header: SessionHeader, entries: readonly SessionEntry[]): string[] {
  return [header, ...entries].map((record) => serializeRecord(record));
}

/** Path equality as the reference compares session directories (case-insensitive on win32). */
export function samePath(a: string, b: string): boolean {
  const x = resolve(a);
  const y = resolve(b);
  return process.platform === "win32" ? x.toLowerCase() === y.toLowerCase() : x === y;
}
