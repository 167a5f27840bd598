/**
 * Saved fold states (SPEC §14 F2): a state a fold saved carries the version of the rule that
 * made it, so a store that keeps states across runs (the session index, a database) refolds a
 * state of another version instead of reusing it. Each fold owns its rule's version and the
 * encoding of its state, next to the rule itself; a store keeps `{ name, version, state }` as
 * it is given and never reads inside the state.
 */

/**
 * How one fold's state is saved and restored. Bump `version` whenever the fold's rule changes
 * what a state means or holds: every state saved under another version is then refolded from
 * the log.
 */
export interface FoldCodec<S> {
  /** The fold's name: a store keeps one state per name. */
  readonly name: string;
  /** The version of the rule (and of this encoding); a whole number. */
  readonly version: number;
  /** The state as text, or `null` when text cannot hold it exactly (the caller refolds then). */
  encode(state: S): string | null;
  /** The state {@link encode} saved (text from `encode` of the same version only). */
  decode(text: string): S;
}

/** A saved state as a store keeps it: opaque text with the fold's name and rule version. */
export interface SavedFoldState {
  readonly name: string;
  readonly version: number;
  readonly state: string;
}

/** `state` saved by `codec`, or `null` when it cannot be saved exactly. */
export function saveFoldState<S>(codec: FoldCodec<S>, state: S): SavedFoldState | null {
  const text = codec.encode(state);
  return text === null ? null : { name: codec.name, version: codec.version, state: text };
}

/**
 * The state `saved` holds for `codec`; `undefined` when there is none, it is another fold's,
 * or it was saved under another version of the rule (refold then).
 */
export function restoreFoldState<S>(
  codec: FoldCodec<S>,
  saved: SavedFoldState | undefined,
): S | undefined {
  if (saved === undefined || saved.name !== codec.name || saved.version !== codec.version) {
    return undefined;
  }
  return codec.decode(saved.state);
}

/**
 * One string naming the rules (and versions) a set of folds ran under, e.g.
 * `"session-info@1 session-shape@1"`: a store compares it with the one it saved to tell, in
 * one comparison, whether anything saved under it may be reused.
 */
export function foldRulesKey(codecs: readonly Pick<FoldCodec<unknown>, "name" | "version">[]) {
  return codecs.map((c) => `${c.name}@${c.version}`).join(" ");
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
