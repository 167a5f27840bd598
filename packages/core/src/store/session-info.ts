/**
 * The {@link SessionInfo} of one session file (SPEC §10.5), streamed through the line scanner
 * in chunks (a huge session costs one chunk plus the texts the info keeps). Only reads (W13).
 */

import type { Stats } from "node:fs";
import { isJsonRecord, JsonlScanner, type JsonlVisitor, type JsonRecord } from "../format/parse.js";
import { isValidHeader } from "../format/record-rules.js";
import { sessionNameOf } from "../projections/session-name.js";
import type { SessionHeader, SessionInfo } from "../schema/types.js";
import { readOrNull, readText } from "./read-chunks.js";
import { type SessionShape, SessionShapeFold } from "./session-shape.js";

const CHUNK_BYTES = 1024 * 1024;

/**
 * The searchable text of a message's `content`: a string as it is, or its `text` blocks' `text`
 * joined by a space (`join` makes a missing one `""`, as the reference does). [Fix] W16: other
 * content and non-object blocks count as empty text instead of throwing (R1.6 drops the session).
 */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts = content.filter((block) => isJsonRecord(block) && block.type === "text");
  return texts.map((block) => block.text).join(" ");
}

/**
 * What {@link SessionInfoFold} must keep to go on folding a file's later lines: everything but
 * its texts, which a store keeps apart (joined, as {@link SessionInfoFold.resume} takes them).
 */
export interface SessionInfoFoldState {
  readonly header: SessionHeader | null;
  readonly messageCount: number;
  readonly lastActivity: number;
  readonly firstMessage?: string;
  /** The last `session_info` name as written (absent: none, or one without a name). */
  readonly rawName?: unknown;
}

/**
 * Folds a file's records into its info; stops at once if the first is not a valid header. Its
 * state can be saved ({@link SessionInfoFold.state}, {@link sessionInfoCodec}) so that a
 * persisted index resumes the fold at a file's tail.
 */
export class SessionInfoFold implements JsonlVisitor {
  header: SessionHeader | null = null;
  messageCount = 0;
  lastActivity = 0;
  firstMessage: string | undefined;
  readonly texts: string[] = [];
  rawName: unknown;

  /**
   * The fold at a saved state; `text` is the joined message text of the lines folded so far
   * (`""` when the caller does not want the text: the info then has only the later lines').
   */
  static resume(state: SessionInfoFoldState, text: string): SessionInfoFold {
    const fold = new SessionInfoFold();
    fold.header = state.header;
    fold.messageCount = state.messageCount;
    fold.lastActivity = state.lastActivity;
    fold.firstMessage = state.firstMessage;
    fold.rawName = state.rawName;
    if (text !== "") fold.texts.push(text); // joined again with one space, as the fold joins
    return fold;
  }

  /** The state to save (see {@link sessionInfoCodec}); the texts are {@link joinedText}. */
  state(): SessionInfoFoldState {
    return {
      header: this.header,
      messageCount: this.messageCount,
      lastActivity: this.lastActivity,
      ...(this.firstMessage === undefined ? {} : { firstMessage: this.firstMessage }),
      ...(this.rawName === undefined ? {} : { rawName: this.rawName }),
    };
  }

  /** Whether the header was folded (every later record is an entry line). */
  get hasHeader(): boolean {
    return this.header !== null;
  }

  /** The message texts folded so far, joined as the info joins them. */
  joinedText(): string {
    return this.texts.join(" ");
  }

  record(record: JsonRecord): boolean {
    if (this.header === null) {
      if (!isValidHeader(record)) return false; // the scan stops: `finish` never runs
      this.header = record;
      return true;
    }
    if (record.type === "message") this.message(record);
    else if (record.type === "session_info") this.rawName = record.name;
    return true;
  }

  /** Malformed and non-object lines add nothing (SPEC §2.1; [Fix] W6 for non-objects). */
  issue(): boolean {
    return true;
  }

  private message(entry: JsonRecord): void {
    this.messageCount++;
    const message = entry.message;
    // A message entry without a message object is counted and otherwise ignored (R1.6 throws).
    if (!isJsonRecord(message)) return;
    const role = message.role;
    if (role !== "user" && role !== "assistant") return;
    if ("content" in message) {
      const ms = message.timestamp;
      const time = typeof ms === "number" ? ms : Date.parse(String(entry.timestamp));
      if (time > this.lastActivity) this.lastActivity = time;
    }
    const text = messageText(message.content);
    if (text === "") return;
    this.texts.push(text);
    if (role === "user" && this.firstMessage === undefined) this.firstMessage = text;
  }

  /** The info, or `null` when the file has no valid header as its first record. */
  finish(path: string, mtime: Date): SessionInfo | null {
    const header = this.header;
    if (header === null) return null;
    const raw = header as unknown as JsonRecord;
    const created = Date.parse(String(raw.timestamp));
    const fallback = Number.isNaN(created) ? mtime.getTime() : created;
    const modified = new Date(this.lastActivity > 0 ? this.lastActivity : fallback);
    return {
      path,
      id: header.id,
      cwd: typeof raw.cwd === "string" ? raw.cwd : "",
      name: sessionNameOf({ raw: this.rawName }),
      parentSessionPath: typeof raw.parentSession === "string" ? raw.parentSession : undefined,
      // `new Date` of whatever is there, as the reference does: may be an Invalid Date.
      created: new Date(raw.timestamp as string | number),
      modified,
      messageCount: this.messageCount,
      firstMessage: this.firstMessage ?? "(no messages)", // no user text (SPEC §10.5)
      allMessagesText: this.texts.join(" "),
    };
  }
}

/** Buffer for the synchronous reader; safe to share because nothing else runs meanwhile. */
let syncBuffer: Buffer | undefined;

/**
 * The {@link SessionInfo} of a file; `null` if unreadable or not a session (§2.2: a header has a
 * string id, which pi 1.6.0's listing does not check).
 */
export function buildSessionInfo(path: string): SessionInfo | null {
  return readSessionInfoSync(path)?.info ?? null;
}

/**
 * {@link buildSessionInfo} with the stat it was read by (up to its size), and `shape` if asked.
 * Only a regular file is opened (a FIFO or device gives `null` at once). `maxLineBytes` skips
 * lines longer than that unread (they add nothing to the info; the shape is then irregular).
 */
export function readSessionInfoSync(
  path: string,
  withShape = false,
  maxLineBytes?: number,
): SessionInfoRead | null {
  return readOrNull(path, (fd, stats) => {
    syncBuffer ??= Buffer.allocUnsafe(CHUNK_BYTES);
    const fold = new SessionInfoFold();
    const shapeFold = withShape ? new SessionShapeFold(fold) : undefined;
    const scanner = new JsonlScanner(shapeFold ?? fold);
    const long =
      maxLineBytes === undefined
        ? undefined
        : {
            maxBytes: maxLineBytes,
            onLongLine: (bytes: number, newline: boolean) =>
              scanner.skipLine(bytes, maxLineBytes, newline),
          };
    const read = readText(fd, syncBuffer, (text) => scanner.push(text), stats.size, long);
    if (read.stopped || !scanner.end()) return { info: null, stats };
    const info = fold.finish(path, stats.mtime);
    const shape = info && shapeFold?.finish(scanner.endsWithNewline, read.bytes);
    return { info: shape ? Object.assign(info as SessionInfo, { shape }) : info, stats };
  });
}

/** What {@link readSessionInfoSync} found (`info` is `null` for a file that is not a session). */
export interface SessionInfoRead {
  /** With its `shape` when asked for. */
  readonly info: SessionInfo | (SessionInfo & { readonly shape: SessionShape }) | null;
  /** The stat taken right after opening; the info reflects the first `stats.size` bytes. */
  readonly stats: Stats;
}
