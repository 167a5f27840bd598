import type { StoreStats } from "./store-fs.js";

/**
 * Appends between two path `stat`s while the fd's link count (from the `fstat` each append
 * makes anyway) is unchanged: it drops on a delete or a rename over, so the path is checked
 * only for what it misses (NFS "silly rename", a move of our file).
 */
const PATH_CHECK_EVERY = 64;

/**
 * When a writer's tail check (W7, W8) must `stat` the path as well as the fd: after
 * {@link PATH_CHECK_EVERY} appends, or at once when the fd's link count changed since the path
 * was last checked. A path `stat` per append would cost more than the append itself.
 */
export class PathCheckSchedule {
  /** The fd's stat at the last path check: its link count tells when to check again. */
  private identity: StoreStats | undefined;
  private appendsSince = 0;

  /** Records a check of the path (or an open) that found the fd's `stats`. */
  checked(stats: StoreStats): void {
    this.identity = stats;
    this.appendsSince = 0;
  }

  /** Makes the next check `stat` the path too. */
  dueNext(): void {
    this.appendsSince = PATH_CHECK_EVERY;
  }

  /** Whether the check of an fd whose `fstat` gave `stats` must `stat` the path as well. */
  due(stats: StoreStats): boolean {
    const known = this.identity;
    const linked = known !== undefined && stats.nlink === known.nlink && stats.nlink > 0;
    return !(linked && ++this.appendsSince < PATH_CHECK_EVERY);
  }
}
