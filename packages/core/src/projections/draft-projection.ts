import { type Draft, Immer } from "immer";
import type { SessionEntry } from "../schema/types.js";
import type { FoldContext, Projection } from "../state/projection.js";

// Our own immer instance, so the default `produce` and its settings stay the host's; immer's
// plugins are global to its module, so core loads none (no `enableMapSet()` on import). No
// auto-freeze: it would deep-freeze whatever `apply` puts in the state, stored entries included.
const immer = new Immer({ autoFreeze: false });

/** A projection written as a mutation of a draft; see {@link defineDraftProjection}. */
export interface DraftProjectionSpec<S> extends Pick<Projection<S>, "name" | "init"> {
  /** Mutates `draft` for one more entry (or returns a replacement state). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a recipe may just not return, as in immer.
  apply(draft: Draft<S>, entry: SessionEntry, ctx: FoldContext): S | undefined | void;
}

/**
 * Declares a projection whose `apply` mutates an immer draft: every application yields a new,
 * structurally shared state, so earlier states never change (I9: a snapshot taken before an
 * append is unchanged after it). States are not frozen. For small states that change
 * shallowly: immer copies every container it touches, so one big array or Map would make each
 * append O(n) (keep such logs in shared stores, as the built-ins do). A state holding a Map or
 * Set needs immer's `enableMapSet()`, global to immer: the host calls it if it wants it.
 */
export function defineDraftProjection<S>(spec: DraftProjectionSpec<S>): Projection<S> {
  return {
    name: spec.name,
    init: spec.init,
    apply: (state, entry, ctx) =>
      immer.produce(
        state,
        (draft: Draft<S>) => spec.apply(draft, entry, ctx) as Draft<S> | undefined,
      ) as S,
  };
}
