/**
 * The write floor of the index benchmark, measured in the same run: the rows a build stores
 * (every record's columns, the search text) written by bare better-sqlite3 statements into the
 * index's own tables, the records parsed beforehand and that parse left out of the time. No
 * folds, no listing, no file reads: what SQLite alone costs to hold what the index holds, so
 * the build's ratio to the reference can be read against what is possible at all.
 */

import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { entryFields } from "../src/entry-fields.js";
import { createEntryIndexes, dropEntryIndexes, prepareSchema } from "../src/schema.js";

/** Files per transaction, as a build commits them (`write-batch.ts`). */
const FILES_PER_COMMIT = 400;

/**
 * Writes the entry and search rows of every session file under `root` into a new index file
 * at `file` (removed after); resolves the time spent in SQLite alone, in ms.
 */
export function writeFloorMs(root: string, file: string): number {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  const db = new Database(file);
  try {
    prepareSchema(db, 5000);
    const entry = db.prepare(
      `INSERT INTO entries (rowid, file_id, line, offset, length, id, parent_id, parent_line,
         type, role, timestamp, time_ms, provider, model, input, output, cache_read,
         cache_write, total_tokens, cost)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const text = db.prepare("INSERT INTO entry_text (rowid, text) VALUES (?, ?)");
    const fileRow = db.prepare(
      `INSERT INTO files (id, path, dir, dev, ino, size, mtime_ms, ctime_ms, committed, lines,
         last_start, stopped, state, settled) VALUES (?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, '', 0)`,
    );
    let spent = 0;
    const timed = (work: () => void) => {
      const start = performance.now();
      work();
      spent += performance.now() - start;
    };
    timed(() => {
      db.exec("BEGIN IMMEDIATE");
      dropEntryIndexes(db);
    });
    let fileId = 0;
    let rowid = 0;
    for (const dir of readdirSync(root)) {
      for (const name of readdirSync(join(root, dir))) {
        const path = join(root, dir, name);
        const records = readFileSync(path, "utf8")
          .split("\n")
          .slice(1)
          .filter((line) => line !== "")
          .map((line) => entryFields(JSON.parse(line)));
        const id = ++fileId;
        timed(() => {
          fileRow.run(id, path, join(root, dir));
          let offset = 0;
          records.forEach((f, i) => {
            const r = ++rowid;
            // The columns the recorder writes (place and parent line made up: no file read).
            entry.run(
              r,
              id,
              i + 2,
              offset,
              100,
              f.id,
              f.parentId,
              i + 1,
              f.type,
              f.role,
              f.timestamp,
              f.timeMs,
              f.provider,
              f.model,
              f.input,
              f.output,
              f.cacheRead,
              f.cacheWrite,
              f.totalTokens,
              f.cost,
            );
            if (f.text !== "") text.run(r, f.text);
            offset += 100;
          });
          if (id % FILES_PER_COMMIT === 0) db.exec("COMMIT; BEGIN IMMEDIATE");
        });
      }
    }
    timed(() => {
      createEntryIndexes(db);
      db.exec("COMMIT");
    });
    return spent;
  } finally {
    db.close();
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  }
}
