/**
 * The listing folds a row keeps (core's info and shape folds), saved by their own codecs with
 * their names and rule versions (SPEC §14 F2), so that a grown file is folded on from where the
 * last run stopped instead of from its first line. The index never reads inside a state: core
 * encodes, decodes and resumes its folds, and a row saved under other rules is refolded.
 */

import {
  restoreFoldState,
  type SavedFoldState,
  SessionInfoFold,
  SessionShapeFold,
  type StoredIds,
  saveFoldState,
  sessionInfoCodec,
  sessionShapeCodec,
} from "@pi-sessions/core/internal";

/** Core's two listing folds of one file (session info, session shape), maybe resumed at a saved state. */
export interface ListingFolds {
  readonly info: SessionInfoFold;
  readonly shape: SessionShapeFold;
}

/** The folds of a file nothing of which is folded yet. */
export function freshFolds(): ListingFolds {
  const info = new SessionInfoFold();
  return { info, shape: new SessionShapeFold(info) };
}

/**
 * The folds at the states `saved` (a row's `folds`) holds, `text` being the joined text so far
 * (`""` when not wanted); `undefined` when a state is missing or of another rule version (the
 * caller folds the file from its start then).
 */
export function resumeFolds(saved: string, text: string, ids: StoredIds): ListingFolds | undefined {
  if (saved === "") return undefined;
  const states = JSON.parse(saved) as SavedFoldState[];
  const infoState = restoreFoldState(sessionInfoCodec, states[0]);
  const shapeState = restoreFoldState(sessionShapeCodec, states[1]);
  if (infoState === undefined || shapeState === undefined) return undefined;
  const info = SessionInfoFold.resume(infoState, text);
  return { info, shape: SessionShapeFold.resume(info, shapeState, ids) };
}

/** The folds' states as a row keeps them; `""` when one cannot be saved exactly. */
export function saveFolds({ info, shape }: ListingFolds): string {
  const infoState = saveFoldState(sessionInfoCodec, info.state());
  const shapeState = saveFoldState(sessionShapeCodec, shape.state());
  return infoState === null || shapeState === null ? "" : JSON.stringify([infoState, shapeState]);
}

/** The joined message text the info fold holds. */
export function foldText(folds: ListingFolds): string {
  return folds.info.joinedText();
}
