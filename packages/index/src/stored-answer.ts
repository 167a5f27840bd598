/**
 * A file's finished listing answer as one compact JSON text in its `files` row, so that a row
 * its file's stat vouches for answers without parsing the folds' state and finishing them
 * again. The transcript text is not in it (it is a column of its own, read only when wanted).
 */

import type { SessionInfo } from "@pi-sessions/core";
import type { SessionShape } from "./fold-state.js";

/** A file's info as the listing gives it, with its shape when asked for. */
export interface FileAnswer {
  readonly info: SessionInfo;
  readonly shape?: SessionShape;
  /**
   * Set (by `verify`'s look only) when the row's stored answer and the one its folds give
   * differ: the index contradicts itself, so the answer cannot equal the file's.
   */
  readonly disagreeing?: FileAnswer | null;
}

/** An answer with its shape, as `FileSync` works it out (what {@link encodeAnswer} stores). */
export type Answered = { readonly info: SessionInfo; readonly shape: SessionShape };

/**
 * The info's fields in the order core's fold writes them (`ls --json` prints them in this
 * order), without `path` (the row's) and the text; `null` for an absent name or parent and for
 * an Invalid Date (JSON has no NaN).
 */
type StoredInfo = [
  id: string,
  cwd: string,
  name: string | null,
  parentSessionPath: string | null,
  created: number | null,
  modified: number | null,
  messageCount: number,
  firstMessage: string,
];

/** What `files.answer` holds: the info and the shape, or `null` for a file that is no session. */
type Stored = { readonly i: StoredInfo; readonly s: SessionShape } | null;

const time = (date: Date): number | null => {
  const ms = date.getTime();
  return Number.isNaN(ms) ? null : ms;
};

/** The JSON text of a complete answer (its shape is required: any later listing may ask). */
export function encodeAnswer(answer: Answered | null): string {
  if (answer === null) return "null";
  const { info, shape } = answer;
  const stored: Stored = {
    i: [
      info.id,
      info.cwd,
      info.name ?? null,
      info.parentSessionPath ?? null,
      time(info.created),
      time(info.modified),
      info.messageCount,
      info.firstMessage,
    ],
    s: shape,
  };
  return JSON.stringify(stored);
}

/**
 * The answer a stored text gives for `path`, built exactly as core's fold builds its info
 * (every key present, an absent name or parent as `undefined`); `text` is its joined text.
 */
export function decodeAnswer(
  json: string,
  path: string,
  text: string,
  withShape: boolean,
): FileAnswer | null {
  const stored = JSON.parse(json) as Stored;
  if (stored === null) return null;
  const [id, cwd, name, parent, created, modified, messageCount, firstMessage] = stored.i;
  const info: SessionInfo = {
    path,
    id,
    cwd,
    name: name ?? undefined,
    parentSessionPath: parent ?? undefined,
    created: new Date(created ?? Number.NaN),
    modified: new Date(modified ?? Number.NaN),
    messageCount,
    firstMessage,
    allMessagesText: text,
  };
  return withShape ? { info, shape: stored.s } : { info };
}
