/**
 * The entry log's shapes (its columns, its shared store, a snapshot) and the one decode of an
 * entry's body from its text, with the error a changed file gives. `entry-log.ts` holds the
 * log's operations over them; handles (entry-handle.ts) decode through {@link decodedAt}.
 */

import type { SessionEntry } from "../schema/types.js";
import { handleMaker } from "./entry-handle.js";

/**
 * Where the entries of a loaded file are read when something asks for one: the JSON text of
 * the entry at a position. A file store implements it over the lines' byte offsets.
 */
export interface EntrySource {
  /** The JSON text of the entry at `position` (a position the load gave it). */
  line(position: number): string;
}

/** Thrown when an entry's text no longer holds the entry its load saw (the file was changed). */
export class EntryUnreadableError extends Error {
  constructor(
    /** The entry's position in the log (file order). */
    readonly position: number,
    /** The id the load saw there. */
    readonly id: string,
    detail: string,
  ) {
    super(`Entry ${id} (position ${position}) cannot be read back: ${detail}`);
    this.name = "EntryUnreadableError";
  }
}

/**
 * The tree fields of every entry of a load (parallel to positions) and, per position, the
 * decoded entry when there is one: what a load of a large file keeps, the bodies staying in
 * `source` until something reads them.
 */
export interface EntryColumns {
  /** Each entry's `id`. */
  readonly ids: string[];
  /** Each entry's `parentId` value (any JSON value a foreign writer put there). */
  readonly parents: unknown[];
  /** Each entry's `type` value. */
  readonly types: unknown[];
  /** A message entry's `message.role` when known without decoding it (else undefined). */
  readonly roles?: unknown[];
  /**
   * An entry's `timestamp` when a reader knew it without decoding the entry (the session index's
   * column), else undefined: siblings are ordered by it, so a tree need not decode them.
   */
  readonly timestamps?: readonly unknown[];
  /** A decoded entry, an entry's JSON not decoded yet, or undefined: its text is in `source`. */
  readonly slots: (SessionEntry | string | undefined)[];
  /** Where the text of an entry not held in `slots` is read. */
  readonly source?: EntrySource;
}

/**
 * The append-only entry log with its id and children indexes, shared by the snapshots of one
 * line of appends: each reads only its prefix, so appending never copies (DESIGN rule 6). An
 * append to an older snapshot (a fork) copies its prefix to a new store: newer ones never see it.
 * Each entry is known by its tree fields (id, parentId, type) from the start; its body is
 * decoded from its JSON (an appended line, a line of the loaded file) the first time something
 * reads it, so a load and an append cost the tree, not the transcript.
 */
export interface LogStore extends EntryColumns {
  readonly roles: unknown[];
  /** What was handed out for each position before it was decoded (see entry-handle.ts). */
  readonly handles: (SessionEntry | undefined)[];
  /** The `message` stand-ins handed out (see entry-handle.ts). */
  readonly messageHandles: (object | undefined)[];
  /** id → position of its latest occurrence. */
  readonly latest: Map<string, number>;
  /** position → previous position with the same id; only duplicates pay for it. */
  readonly previous: Map<number, number>;
  /**
   * parentId → positions naming it, ascending (a lone child as a bare number, sparing an array
   * per entry). Built on the first children query, so opening a file does not pay for it.
   */
  children: Map<string, number | number[]> | undefined;
  /**
   * Positions whose id was already in the log (SPEC W15: duplicate ids; the last one wins lookups).
   */
  readonly duplicates: number[];
}

/** An immutable snapshot of the entry log: the first `length` entries of a shared store. */
export interface EntryLog {
  readonly store: LogStore;
  readonly length: number;
  /** Number of distinct ids among the first `length` entries. */
  readonly distinct: number;
}

/** The tree fields of an entry about to be appended by its JSON text. */
export interface EntryHead {
  readonly id: string;
  readonly parentId: unknown;
  readonly type: unknown;
  /** A message entry's `message.role`, when it is a string. */
  readonly role?: unknown;
}

/** {@link entryAt} on a store (the handles' way back). */
export function decodedAt(store: LogStore, pos: number): SessionEntry {
  const slot = store.slots[pos];
  if (typeof slot === "object") return slot;
  const id = store.ids[pos] as string;
  let text: string | undefined;
  try {
    text = slot ?? store.source?.line(pos);
  } catch (error) {
    throw new EntryUnreadableError(pos, id, `its file cannot be read (${String(error)})`);
  }
  if (text === undefined) throw new EntryUnreadableError(pos, id, "it has no source");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EntryUnreadableError(pos, id, `its line is no longer JSON (${String(error)})`);
  }
  const record = value as SessionEntry | null;
  if (
    typeof record !== "object" ||
    record === null ||
    record.id !== id ||
    record.type !== store.types[pos]
  ) {
    throw new EntryUnreadableError(pos, id, "its line now holds another record");
  }
  store.slots[pos] = record;
  return record;
}

/** Handles over log stores, decoding with {@link decodedAt}. */
export const makeHandle = handleMaker<LogStore>((store, pos) => decodedAt(store, pos));
