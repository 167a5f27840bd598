/**
 * Checking an index against the files, read-only on both: SQLite's own integrity checks, then
 * for every session file under a root whose rows are up to date, the listing answer the index
 * gives against core's direct read of the file, and every stored record against the line at
 * its stored byte offset. Rows behind their file (grown, replaced) are counted, not problems:
 * the next listing catches them up.
 */

import { isDeepStrictEqual } from "node:util";
import { readSessionInfoSync, type ShapedSessionInfo } from "@pi-sessions/core/internal";
import { DEPTH } from "./file-index.js";
import { FileSync } from "./file-sync.js";
import { readBytes } from "./line-chunks.js";
import { withRegularFile } from "./open-file.js";
import { type Database, prepare, prepareArrays } from "./sqlite.js";
import type { Statements } from "./statements.js";
import { sessionFilesUnder } from "./sync-covered-files.js";
import { WriteBatch } from "./write-batch.js";

/** One thing the index says that its file does not. */
export interface VerifyProblem {
  /** The session file (or the index file, for SQLite's own checks). */
  readonly path: string;
  readonly problem: string;
}

/** What {@link SessionIndex.verify} found. */
export interface VerifyReport {
  /** `*.jsonl` files under the root. */
  readonly files: number;
  /** Files whose rows are up to date (and were checked). */
  readonly fresh: number;
  /** Files changed since they were indexed (the next listing catches them up). */
  readonly stale: number;
  /** Files not indexed yet. */
  readonly missing: number;
  /** Rows of files that are gone. */
  readonly orphaned: number;
  readonly problems: readonly VerifyProblem[];
  /** True when there is no problem (stale, missing and orphaned rows are not problems). */
  readonly ok: boolean;
}

interface StoredEntry {
  line: number;
  offset: number;
  length: number;
  id: string | null;
  type: string | null;
}

/** Problems of one fresh file's stored records: each must be the record at its offset. */
function entryProblems(db: Database, path: string, fileId: number): VerifyProblem[] {
  const rows = prepare<[number], StoredEntry>(
    db,
    "SELECT line, offset, length, id, type FROM entries WHERE file_id = ? ORDER BY line",
  ).all(fileId);
  const gone = () => [{ path, problem: "the file is no longer a regular file" }];
  return withRegularFile(path, gone, (fd) => {
    for (const row of rows) {
      let record: { id?: unknown; type?: unknown } | undefined;
      try {
        record = JSON.parse(readBytes(fd, row.offset, row.length).toString("utf8"));
      } catch {
        record = undefined;
      }
      if (record?.id !== (row.id ?? undefined) || record?.type !== (row.type ?? undefined)) {
        return [
          { path, problem: `line ${row.line}: the stored entry is not the line at its offset` },
        ];
      }
    }
    return [];
  });
}

/** Checks the index's rows for the files under `root` against the files. */
export function verifyIndex(
  db: Database,
  st: Statements,
  file: string,
  root: string,
): VerifyReport {
  const problems: VerifyProblem[] = [];
  for (const [result] of prepareArrays<[], [string]>(db, "PRAGMA quick_check").all()) {
    if (result !== "ok") problems.push({ path: file, problem: result });
  }
  try {
    db.exec("INSERT INTO entry_text(entry_text) VALUES ('integrity-check')");
  } catch (error) {
    problems.push({ path: file, problem: `full-text index: ${String(error)}` });
  }
  const files = sessionFilesUnder(root);
  let fresh = 0;
  let stale = 0;
  let missing = 0;
  for (const path of files) {
    const peek = new FileSync(st, path, new WriteBatch(db)).peek();
    if (peek.state === "stale") stale++;
    if (peek.state === "missing") missing++;
    if (peek.state !== "fresh") continue;
    fresh++;
    const direct = readSessionInfoSync(path, true);
    // Core's read gives the shape inside the info; the index keeps the two apart.
    const { shape, ...info } = (direct?.info ?? {}) as ShapedSessionInfo;
    // A row made by a listing alone holds no text: its answer's text is empty.
    if (peek.filled === DEPTH.listing) info.allMessagesText = "";
    const expected = direct?.info ? { info, shape } : null;
    if (!isDeepStrictEqual(peek.answer, expected)) {
      problems.push({ path, problem: "the index's listing info differs from the file's" });
      continue;
    }
    if (peek.filled === DEPTH.full) problems.push(...entryProblems(db, path, peek.fileId));
  }
  const onDisk = new Set(files);
  const rows = prepare<[string, string], { path: string }>(
    db,
    "SELECT path FROM files WHERE path > ? AND path < ?",
  ).all(`${root}/`, `${root}/\u{10ffff}`);
  const orphaned = rows.filter((r) => !onDisk.has(r.path)).length;
  return {
    files: files.length,
    fresh,
    stale,
    missing,
    orphaned,
    problems,
    ok: problems.length === 0,
  };
}
