/**
 * A file's answer as the index hands it to a listing: core's {@link ListingAnswer} (kept in a
 * row as core's codec writes it, `encodeListingAnswer`), with only the parts asked for.
 */

import type { SessionInfo } from "@pi-sessions/core";
import {
  decodeListingAnswer,
  type ListingAnswer,
  type SessionShape,
} from "@pi-sessions/core/internal";

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

/** An answer with its shape, as `FileSync` works it out (what a row stores once settled). */
export type Answered = ListingAnswer;

/**
 * The answer a row's stored text gives for `path`, with its shape when `withShape`; the joined
 * text as given, or read on first use when a function (`decodeListingAnswer`).
 */
export function decodeAnswer(
  text: string,
  path: string,
  allMessagesText: string | (() => string),
  withShape: boolean,
): FileAnswer | null {
  const answer = decodeListingAnswer(text, path, allMessagesText);
  if (answer === null) return null;
  return withShape ? answer : { info: answer.info };
}
