/**
 * Groups the writes of a listing into a few transactions. SQLite pays most of a write at
 * commit (and FTS5 writes a new segment per transaction), so indexing thousands of files one
 * commit each would cost many times the reading. A batch takes the write lock (`BEGIN
 * IMMEDIATE`) at its first write and commits after a bounded number of files or time, so
 * another process never waits long for its turn; reads inside the batch see its writes.
 */

import type { Database } from "better-sqlite3";

/** Files per transaction at most. */
const MAX_FILES = 400;
/** How long one transaction may hold the write lock, in ms (checked between files). */
const MAX_MS = 250;

/** The open transaction of one listing, if any. */
export class WriteBatch {
  private open = false;
  private since = 0;
  private files = 0;

  constructor(private readonly db: Database) {}

  /** Runs one file's writes inside the batch (opening it when needed). */
  write<T>(writes: () => T): T {
    if (!this.open) {
      this.db.exec("BEGIN IMMEDIATE");
      this.open = true;
      this.since = performance.now();
      this.files = 0;
    }
    try {
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
      this.commit();
    }
  }

  /** Commits what the batch holds. */
  commit(): void {
    if (!this.open) return;
    this.open = false;
    this.db.exec("COMMIT");
  }

  /** Drops what the batch holds (after a failure; the next listing writes it again). */
  rollback(): void {
    if (!this.open) return;
    this.open = false;
    try {
      this.db.exec("ROLLBACK");
    } catch {
      // SQLite may already have rolled back (on SQLITE_FULL, for one).
    }
  }
}
