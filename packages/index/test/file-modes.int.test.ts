/**
 * The index holds transcript text, so every file of it is owner-only — its WAL and
 * shared-memory files too. SQLite gives those the mode the database file has when it makes
 * them; a new index used to be created with the process's umask (0644) and chmod'ed to 0600
 * only after the WAL was made, so while that first connection lived (a pi through the launcher:
 * hours) its `-wal`, full of transcript text, was world-readable.
 */

import { statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";

test("a new index's file, WAL and shared-memory file are all 0600 while it is open, under umask 022", () => {
  const previous = process.umask(0o022);
  try {
    const file = join(tempDir(), "shared", "index.sqlite");
    const index = openSessionIndex({ file });
    try {
      for (const suffix of ["", "-wal", "-shm"]) {
        // Each must exist (else this checks nothing), and be the owner's alone.
        expect((statSync(`${file}${suffix}`).mode & 0o777).toString(8), suffix).toBe("600");
      }
    } finally {
      index.close();
    }
  } finally {
    process.umask(previous);
  }
});
