/**
 * The listing folds' rule versions and state encodings (SPEC §14 F2), each a
 * {@link VersionedFold} as a projection that a store saves declares them. They sit apart from
 * the folds (only types are imported from those) so that a store checking its rules key (the
 * index's warm `ls --all`) reads the versions without loading the session reader or its
 * validation. The fingerprint test (`test/store/fold-versions.test.ts`) folds fixed inputs
 * under each name and version and fails when a rule changed without a new version.
 */

import type { VersionedFold } from "../state/projection.js";
import { exactJson } from "./listing-folds.js";
import type { SessionInfoFoldState } from "./session-info.js";
import type { SessionShapeFoldState } from "./session-shape.js";

/**
 * The info fold's rule version and state encoding (SPEC §14 F2). Bump `version` with any change
 * to what {@link SessionInfoFold} folds or keeps: saved states of other versions are refolded.
 */
export const sessionInfoCodec: VersionedFold<SessionInfoFoldState> = {
  name: "session-info",
  version: 1,
  encode: (state) => exactJson(state),
  decode: (text) => JSON.parse(text) as SessionInfoFoldState,
};

/**
 * The shape fold's rule version and state encoding (SPEC §14 F2). Bump `version` with any
 * change to what {@link SessionShapeFold} decides: saved states of other versions are refolded.
 */
export const sessionShapeCodec: VersionedFold<SessionShapeFoldState> = {
  name: "session-shape",
  version: 1,
  encode: (state) => JSON.stringify(state),
  decode: (text) => JSON.parse(text) as SessionShapeFoldState,
};
