/**
 * The SessionInfo a listing must give for each file of a generated folder, and the entries a
 * reader must see, computed from the folder's facts with the rules of SPEC §10.5 (not through
 * an engine's listing code).
 */
import { isJsonRecord } from "@pi-sessions/core/internal";
import type { FolderFile } from "./folder-types.js";

/** The SessionInfo fields a listing must give for one file (paths relative to the root). */
export interface SessionInfoFacts {
  readonly path: string;
  readonly id: string;
  /** `header.cwd` when it is a string, else `""`. */
  readonly cwd: string;
  /** The trimmed name of the last `session_info` entry, undefined when empty or absent. */
  readonly name: string | undefined;
  /** `header.parentSession` as written (with the root placeholder, see `folderFileText`). */
  readonly parentSessionPath: string | undefined;
  /** `header.timestamp` as written (`created` is `new Date` of it). */
  readonly created: string;
  /**
   * The latest activity time in ms, or the header time when no user or assistant message has
   * one; null when neither is valid (a listing falls back to the file's mtime).
   */
  readonly modified: number | null;
  readonly messageCount: number;
  readonly firstMessage: string;
  readonly allMessagesText: string;
}

/** A message's text: string content as is, else the `text` of its text blocks joined by a space. */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b) => isJsonRecord(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => (b as { text: string }).text)
    .join(" ");
}

/** Whether a byte-order mark sits right before the header line (so that line is no JSON). */
function bomOnHeader(file: FolderFile): boolean {
  if (!file.text.startsWith("\uFEFF")) return false;
  const end = file.text.indexOf("\n");
  try {
    const first = JSON.parse(file.text.slice(1, end < 0 ? undefined : end)) as { type?: unknown };
    return first?.type === "session";
  } catch {
    return false;
  }
}

/**
 * The SessionInfo of `file`, or null when a listing must drop it: its first parsed record is
 * not a valid header (`type: "session"` with a string id). A byte-order mark right before the
 * header makes that line unparseable JSON (SPEC §2.1, §2.2), so the file is dropped; before a
 * garbage line it changes nothing.
 */
export function sessionInfoOracle(file: FolderFile): SessionInfoFacts | null {
  const h = file.header;
  if (!h || bomOnHeader(file) || h.type !== "session" || typeof h.id !== "string") return null;
  let name: string | undefined;
  let latest: number | undefined;
  let messageCount = 0;
  let firstMessage: string | undefined;
  const texts: string[] = [];
  for (const { entry } of file.records) {
    if (entry.type === "session_info") {
      name = typeof entry.name === "string" ? entry.name.trim() || undefined : undefined;
    }
    if (entry.type !== "message") continue;
    messageCount++;
    const m = entry.message;
    if (!isJsonRecord(m) || (m.role !== "user" && m.role !== "assistant")) continue;
    const text = messageText(m.content);
    if (text !== "") texts.push(text);
    if (m.role === "user" && text !== "" && firstMessage === undefined) firstMessage = text;
    if (!("content" in m)) continue;
    const at =
      typeof m.timestamp === "number"
        ? m.timestamp
        : typeof entry.timestamp === "string"
          ? Date.parse(entry.timestamp)
          : Number.NaN;
    if (!Number.isNaN(at) && (latest === undefined || at > latest)) latest = at;
  }
  const created = typeof h.timestamp === "string" ? h.timestamp : "";
  const headerMs = Date.parse(created);
  const modified =
    latest !== undefined && latest > 0 ? latest : Number.isNaN(headerMs) ? null : headerMs;
  return {
    path: file.path,
    id: h.id,
    cwd: typeof h.cwd === "string" ? h.cwd : "",
    name,
    parentSessionPath: typeof h.parentSession === "string" ? h.parentSession : undefined,
    created,
    modified,
    messageCount,
    firstMessage: firstMessage ?? "(no messages)",
    allMessagesText: texts.join(" "),
  };
}

/** The entries a reader must see in `file`, in file order (its header and damaged lines left out). */
export function entriesOf(file: FolderFile): Readonly<Record<string, unknown>>[] {
  return file.records.map((r) => r.entry);
}
