import { type Draft, enableMapSet, produce } from "immer";
import type { SessionEntry } from "../schema/types.js";
import { defineProjection, type FoldContext, type Projection } from "../state/projection.js";

// Plugin states often hold Maps and Sets (e.g. per-model totals); immer drafts them only
// once this is enabled. Enabling it is global but changes nothing for code that does not
// pass Maps to immer.
enableMapSet();

/** A projection written as a mutation of a draft; see {@link defineDraftProjection}. */
export interface DraftProjectionSpec<S> {
  /** Unique name; plugins address their state by it. */
  readonly name: string;
  /** The state of an empty log. */
  init(): S;
  /** Mutates `draft` for one more entry (or returns a replacement state). */
  apply(draft: Draft<S>, entry: SessionEntry, ctx: FoldContext): S | undefined;
}

/**
 * Declares a projection whose `apply` mutates an immer draft. Every application yields a new
 * structurally shared, frozen state, so earlier states never change (DESIGN I9) while the
 * reducer reads like plain mutation. Meant for small states that change shallowly (immer
 * copies every container it touches, so a state with one big array or Map would make each
 * append O(n): keep such logs in the shared stores the built-ins use instead).
 */
export function defineDraftProjection<S>(spec: DraftProjectionSpec<S>): Projection<S> {
  return defineProjection<S>({
    name: spec.name,
    init: spec.init,
    apply: (state, entry, ctx) =>
      produce(
        state,
        (draft: Draft<S>) => spec.apply(draft, entry, ctx) as Draft<S> | undefined,
      ) as S,
  });
}
