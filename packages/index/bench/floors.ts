/**
 * The write floor of the index benchmark, measured in the same run: the rows a build stores
 * (per file its row with the folds' state, its joined text and its usage state; per record its
 * columns and its search text) written by bare better-sqlite3 statements into the index's own
 * tables, committed by the build's own rule. Everything that is not SQLite (reading and parsing
 * the files, core's folds, the usage fold, the columns of each record) is done beforehand and
 * left out of the time: what SQLite alone costs to hold what the index holds, so the build's
 * ratio to the reference can be read against what is possible at all.
 */

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { SessionEntry } from "@pi-sessions/core";
import { JsonlScanner, type JsonRecord } from "@pi-sessions/core/internal";
import { type EntryFields, entryFields } from "../src/entry-fields.js";
import { entryValues, INSERT_ENTRY } from "../src/entry-recorder.js";
import { foldText, freshFolds, saveFolds } from "../src/fold-state.js";
import { indexRules } from "../src/index-rules.js";
import { createEntryIndexes, dropEntryIndexes, prepareSchema } from "../src/schema.js";
import { openSqlite } from "../src/sqlite.js";
import { UsageFold } from "../src/usage-fold.js";
import { MAX_FILES, MAX_MS } from "../src/write-batch.js";

/** One file as a build has it once read: its records' columns, folds' state and text. */
interface ReadSession {
  /** Every record after the header, with its columns. */
  readonly records: readonly { readonly record: JsonRecord; readonly fields: EntryFields }[];
  readonly state: string;
  readonly text: string;
  readonly lastHash: Buffer;
}

/** Reads and folds one session file as a build does (not timed). */
function readSession(path: string): ReadSession {
  const content = readFileSync(path, "utf8");
  const folds = freshFolds();
  const records: { record: JsonRecord; fields: EntryFields }[] = [];
  const scanner = new JsonlScanner({
    record: (record: JsonRecord, line: number, raw: string) => {
      const wasHeader = folds.info.header === null;
      const going = folds.shape.record(record, line, raw);
      if (!wasHeader) records.push({ record, fields: entryFields(record) });
      return going;
    },
    issue: (issue) => folds.shape.issue(issue),
  });
  scanner.push(content);
  // The last complete line, with its newline (what a build hashes).
  const end = content.lastIndexOf("\n");
  const last = content.slice(content.lastIndexOf("\n", end - 1) + 1, end + 1);
  return {
    records,
    state: saveFolds(folds),
    text: foldText(folds),
    lastHash: createHash("sha1").update(last).digest(),
  };
}

/**
 * Writes the rows of every session file under `root` into a new index file at `file` (removed
 * after); returns the time spent in SQLite alone, in ms.
 */
export function writeFloorMs(root: string, file: string): number {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
  const db = openSqlite(file, { timeout: 5000 });
  try {
    prepareSchema(db, 5000);
    const entry = db.prepare(INSERT_ENTRY);
    const text = db.prepare("INSERT INTO entry_text (rowid, text) VALUES (?, ?)");
    const fileRow = db.prepare(
      `INSERT INTO files (id, path, dir, dev, ino, size, mtime_ms, ctime_ms, committed, lines,
         last_start, last_hash, stopped, rules, folds, filled, settled, session_id, cwd)
       VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 2, 0, ?, ?)`,
    );
    const fileText = db.prepare("INSERT INTO file_text (file_id, all_text) VALUES (?, ?)");
    let spent = 0;
    const timed = (work: () => void) => {
      const start = performance.now();
      work();
      spent += performance.now() - start;
    };
    // The build's commit rule (`WriteBatch`): after MAX_FILES files or MAX_MS of wall time
    // since the transaction began, reading included, so the search table gets as many
    // segments as in a build.
    let since = performance.now();
    let inBatch = 0;
    timed(() => {
      db.exec("BEGIN IMMEDIATE");
      dropEntryIndexes(db);
    });
    let fileId = 0;
    let rowid = 0;
    for (const dir of readdirSync(root)) {
      for (const name of readdirSync(join(root, dir))) {
        const path = join(root, dir, name);
        const read = readSession(path);
        const id = ++fileId;
        const usage = new UsageFold(db, id, false);
        for (const { record } of read.records) usage.apply(record as unknown as SessionEntry);
        const size = 100 * (read.records.length + 1);
        timed(() => {
          const lines = read.records.length + 1;
          fileRow.run(
            id,
            path,
            join(root, dir),
            id,
            size,
            id,
            id,
            size,
            lines,
            size - 100,
            read.lastHash,
            indexRules(),
            read.state,
            `floor-${id}`,
            "/floor",
          );
          read.records.forEach(({ fields: f }, i) => {
            const r = ++rowid;
            // The recorder's columns; the place and parent line are made up (no file read):
            // each record 100 bytes, its parent the line before it.
            const parentLine = f.parentId === null ? null : i + 1;
            const place = { rowid: r, fileId: id, line: i + 2, offset: 100 * (i + 1), length: 99 };
            entry.run(...(entryValues({ ...place, parentLine }, f) as never[]));
            if (f.text !== "") text.run(r, f.text);
          });
          fileText.run(id, Buffer.from(read.text));
          usage.write();
        });
        inBatch++;
        if (inBatch >= MAX_FILES || performance.now() - since > MAX_MS) {
          timed(() => db.exec("COMMIT; BEGIN IMMEDIATE"));
          since = performance.now();
          inBatch = 0;
        }
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
