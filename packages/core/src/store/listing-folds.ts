/**
 * Saved fold states (SPEC §14 F2): a state a fold saved carries the version of the rule that
 * made it, so a store that keeps states across runs (the session index, a database) refolds a
 * state of another version instead of reusing it. Each fold declares its rule's version and the
 * encoding of its state as a {@link VersionedFold} (a projection declares them beside `apply`);
 * a store keeps `{ name, version, state }` as it is given and never reads inside the state.
 */

import type { VersionedFold } from "../state/projection.js";

/** A saved state as a store keeps it: opaque text with the fold's name and rule version. */
export interface SavedFoldState {
  readonly name: string;
  readonly version: number;
  readonly state: string;
}

/** `state` saved by `fold`, or `null` when it cannot be saved exactly. */
export function saveFoldState<S>(fold: VersionedFold<S>, state: S): SavedFoldState | null {
  const text = fold.encode(state);
  return text === null ? null : { name: fold.name, version: fold.version, state: text };
}

/**
 * The state `saved` holds for `fold`; `undefined` when there is none, it is another fold's,
 * or it was saved under another version of the rule (refold then).
 */
export function restoreFoldState<S>(
  fold: VersionedFold<S>,
  saved: SavedFoldState | undefined,
): S | undefined {
  if (saved === undefined || saved.name !== fold.name || saved.version !== fold.version) {
    return undefined;
  }
  return fold.decode(saved.state);
}

/**
 * One string naming the rules (and versions) a set of folds ran under, e.g.
 * `"session-info@1 session-shape@1"`: a store compares it with the one it saved to tell, in
 * one comparison, whether anything saved under it may be reused.
 */
export function foldRulesKey(folds: readonly Pick<VersionedFold<unknown>, "name" | "version">[]) {
  return folds.map((c) => `${c.name}@${c.version}`).join(" ");
}

/**
 * `JSON.stringify(value)`, or `null` when JSON would not give `value` back exactly: a
 * non-finite number (written as `null`) or a negative zero (written as `0`).
 */
export function exactJson(value: unknown): string | null {
  let exact = true;
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === "number" && (!Number.isFinite(item) || Object.is(item, -0))) exact = false;
    return item;
  });
  return exact ? text : null;
}
