/**
 * A plugin's branch state kept current on a live manager: O(1) per append at the leaf,
 * rebuilt (O(path)) on first use after the leaf moved elsewhere. It must always equal the pure
 * fold `foldBranchState` of the manager's branch (the branch-state law tests check it).
 */
import type { SessionEntry, SessionManager } from "@pi-sessions/core";
import { foldBranchState, stepBranchState } from "../plugin/branch-state.js";
import type { Plugin } from "../registry/registry.js";

/**
 * Keeps one plugin's branch state current on a manager from its bus events. The cache is
 * the state at one leaf id; since entries never change, that state stays right for as long
 * as the session does, so moving the leaf away and back costs nothing. An append onto the
 * cached leaf extends it in O(1); an append elsewhere or another session marks it stale; a
 * read at another leaf rebuilds it from `getBranch()` (O(path)).
 */
export class BranchStateTracker<S> {
  private valid = false;
  private leaf: string | null = null;
  private state: S | undefined;

  /**
   * `plugin` has a branchState reducer (the install makes trackers only for those); `manager`
   * is ours or pi's read-only view: the tracker reads only the leaf and the branch.
   */
  constructor(
    private readonly plugin: Plugin<S>,
    private readonly manager: Pick<SessionManager, "getLeafId" | "getBranch">,
  ) {}

  /** An entry was appended: extend when it hangs off the cached leaf, else go stale. */
  appended(entry: SessionEntry): void {
    // Told again about the entry the cache already holds (a read caught up first): nothing to do.
    if (this.valid && entry.id === this.leaf) return;
    // getBranch() treats an empty id as "no branch", so a cache at "" cannot be extended.
    if (this.valid && entry.parentId === this.leaf && this.leaf !== "") {
      this.state = stepBranchState(this.plugin, this.state as S, entry);
      this.leaf = entry.id;
    } else {
      this.valid = false;
    }
  }

  /** The whole session changed (ids of another session say nothing about this cache). */
  invalidate(): void {
    this.valid = false;
  }

  /** The state at the manager's current leaf. */
  current(): S {
    const leaf = this.manager.getLeafId();
    if (!this.valid || this.leaf !== leaf) {
      this.state = foldBranchState(this.plugin, this.manager.getBranch());
      this.leaf = leaf;
      this.valid = true;
    }
    return this.state as S;
  }
}
