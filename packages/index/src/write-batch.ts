/**
 * Groups the writes of a listing into a few transactions. SQLite pays most of a write at
 * commit (and FTS5 writes a new segment per transaction), so indexing thousands of files one
 * commit each would cost many times the reading. A batch takes the write lock (`BEGIN
 * IMMEDIATE`) at its first write and commits after a bounded number of files or time, so
 * another process never waits long for its turn; reads inside the batch see its writes.
 *
 * A listing whose first write finds no entries at all is a build from nothing: it drops the
 * `entries` indexes in that first transaction and creates them again in its last one. A crash
 * in between leaves correct rows without the indexes; opening the index, or the next
 * listing's first write, creates them.
 */

import { createEntryIndexes, dropEntryIndexes } from "./schema.js";
import { type Database, inTransaction, rollbackQuietly } from "./sqlite.js";

/** Files per transaction at most. */
export const MAX_FILES = 400;
/** How long one transaction may hold the write lock, in ms (checked between files). */
export const MAX_MS = 250;

/** The open transaction of one listing, if any. */
export class WriteBatch {
  private open = false;
  private since = 0;
  private files = 0;
  /** Whether this listing dropped the `entries` indexes (undefined: no write yet). */
  private building: boolean | undefined;

  constructor(
    /** The connection the batch writes on. */
    readonly db: Database,
  ) {}

  /** Runs one file's writes inside the batch (opening it when needed). */
  write<T>(writes: () => T): T {
    try {
      this.begin();
      const result = writes();
      this.files++;
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /** Commits when the batch is full or old enough; called between files. */
  maybeCommit(): void {
    if (this.open && (this.files >= MAX_FILES || performance.now() - this.since > MAX_MS)) {
      this.end();
    }
  }

  /** Commits what the batch holds; the listing's last call (a build's indexes are made here). */
  commit(): void {
    if (this.building === true) {
      this.begin();
      createEntryIndexes(this.db);
      this.building = false;
    }
    this.end();
  }

  /** Drops what the batch holds (after a failure; the next listing writes it again). */
  rollback(): void {
    if (this.open) {
      this.open = false;
      // SQLite may already have rolled back (on SQLITE_FULL, for one).
      rollbackQuietly(this.db);
    }
    if (this.building === true) {
      this.building = false;
      try {
        inTransaction(this.db, () => createEntryIndexes(this.db));
      } catch {
        // The next listing's first write creates them (see the file's comment).
      }
    }
  }

  private begin(): void {
    if (this.open) return;
    this.db.exec("BEGIN IMMEDIATE");
    this.open = true;
    this.since = performance.now();
    this.files = 0;
    if (this.building === undefined) this.building = this.startsFromNothing();
  }

  /** At the listing's first write: drops the indexes if there are no entries, else ensures them. */
  private startsFromNothing(): boolean {
    const any = this.db.prepare("SELECT 1 FROM entries LIMIT 1").get();
    if (any === undefined) {
      dropEntryIndexes(this.db);
      return true;
    }
    createEntryIndexes(this.db);
    return false;
  }

  private end(): void {
    if (!this.open) return;
    this.open = false;
    this.db.exec("COMMIT");
  }
}
