/**
 * A branch reducer written as an immer recipe: the plugin author changes a draft of the
 * state, and immer's `produce` makes the next state from it, copying only what the recipe
 * touched and sharing the rest, so every earlier state stays as it was.
 */
import { type Draft, Immer } from "immer";
import type { BranchReducer } from "../registry/registry.js";

/**
 * A plugin's branch state as an immer recipe (an alternative to {@link BranchReducer}'s
 * `apply`): `recipe` mutates `draft`, a draft of the previous state, for one more of the
 * plugin's entries, or returns a whole new state. The states it makes share what the recipe
 * did not touch with the earlier ones, which never change. They are not frozen (see
 * `recipeReducer`). A state holding a `Map` or `Set` needs immer's `enableMapSet()`, which is
 * global to immer: the host calls it if it wants it; this package never does.
 */
export interface BranchRecipe<S, I> {
  /** The state of an empty branch. */
  init(): S;
  /** Changes the draft for one more of the plugin's entries (or returns a new state). */
  // biome-ignore lint/suspicious/noConfusingVoidType: a recipe may just not return, as in immer.
  recipe(draft: Draft<S>, item: I): S | undefined | void;
}

// Our own immer instance, so the default `produce` and its settings stay the host's.
// No auto-freeze: freezing would deep-freeze whatever the recipe puts in the state, and an
// entry's decoded data is usually the stored entry's own object, which hosts may hold too.
const immer = new Immer({ autoFreeze: false });

/** The plain reducer a recipe stands for: `apply` is `produce(state, recipe)`. */
export function recipeReducer<S, I>(spec: BranchRecipe<S, I>): BranchReducer<S, I> {
  const { init, recipe } = spec;
  return {
    init,
    apply: (state, item) =>
      immer.produce(state, (draft: Draft<S>) => recipe(draft, item) as Draft<S> | undefined) as S,
  };
}
