/**
 * The listing folds' rule versions and state encodings (SPEC §14 F2), apart from the folds:
 * only types are imported from them, so that a store checking its rules key (the index's warm
 * `ls --all`) reads the versions without loading the session reader or its validation.
 */

import { exactJson, type FoldCodec } from "./listing-folds.js";
import type { SessionInfoFoldState } from "./session-info.js";
import type { SessionShapeFoldState } from "./session-shape.js";

/**
 * The info fold's rule version and state encoding (SPEC §14 F2). Bump `version` with any change
 * to what {@link SessionInfoFold} folds or keeps: saved states of other versions are refolded.
 */
export const sessionInfoCodec: FoldCodec<SessionInfoFoldState> = {
  name: "session-info",
  version: 1,
  encode: (state) => exactJson(state),
  decode: (text) => JSON.parse(text) as SessionInfoFoldState,
};

/**
 * The shape fold's rule version and state encoding (SPEC §14 F2). Bump `version` with any
 * change to what {@link SessionShapeFold} decides: saved states of other versions are refolded.
 */
export const sessionShapeCodec: FoldCodec<SessionShapeFoldState> = {
  name: "session-shape",
  version: 1,
  encode: (state) => JSON.stringify(state),
  decode: (text) => JSON.parse(text) as SessionShapeFoldState,
};
