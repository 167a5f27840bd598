/**
 * The branch reducer a plugin may declare: the pi-extension way of keeping state, folded from
 * the plugin's own entries along the current branch. Apart from the plugin model so the model
 * module stays about plugins and their registry.
 */

/**
 * Folds a plugin's state from its own entries along the current branch (root → leaf), the
 * way pi extensions rebuild state from `getBranch()`. `apply` must return a new state and
 * leave the old one unchanged. Entries whose data cannot be read are skipped (and reported
 * as plugin diagnostics).
 */
export interface BranchReducer<S, I> {
  /** The state of an empty branch. */
  init(): S;
  /** The state after one more of the plugin's entries. */
  apply(state: S, item: I): S;
}
