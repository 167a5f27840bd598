import { type Draft, enableMapSet, produce } from "immer";
import type { SessionEntry } from "../schema/types.js";
import type { FoldContext, Projection } from "../state/projection.js";

// Plugin states often hold Maps and Sets (e.g. per-model totals), which immer drafts only once
// this is enabled; global, but it changes nothing for code that passes no Maps to immer.
enableMapSet();

/** A projection written as a mutation of a draft; see {@link defineDraftProjection}. */
export interface DraftProjectionSpec<S> extends Pick<Projection<S>, "name" | "init"> {
  /** Mutates `draft` for one more entry (or returns a replacement state). */
  apply(draft: Draft<S>, entry: SessionEntry, ctx: FoldContext): S | undefined;
}

/**
 * Declares a projection whose `apply` mutates an immer draft: every application yields a new,
 * structurally shared, frozen state, so earlier states never change (DESIGN I9). For small
 * states that change shallowly: immer copies every container it touches, so one big array or
 * Map would make each append O(n) (keep such logs in shared stores, as the built-ins do).
 */
export function defineDraftProjection<S>(spec: DraftProjectionSpec<S>): Projection<S> {
  return {
    name: spec.name,
    init: spec.init,
    apply: (state, entry, ctx) =>
      produce(
        state,
        (draft: Draft<S>) => spec.apply(draft, entry, ctx) as Draft<S> | undefined,
      ) as S,
  };
}
