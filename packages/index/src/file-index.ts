/**
 * Writing one file's rows: a listing's row alone (core's folds over every complete line, the
 * finished answer, and the joined text when asked for), or the row with every record, its
 * search text and the usage fold's state (`DEPTH.full`), from the file's start or, for a file
 * that only grew, from its last indexed line on. Only complete lines are stored; a torn last
 * line is folded into the answer but left for the next run. Runs inside the caller's write
 * transaction.
 */

import { createHash } from "node:crypto";
import type { Stats } from "node:fs";
import { dirname } from "node:path";
import { encodeListingAnswer, JsonlScanner, type StoredIds } from "@pi-sessions/core/internal";
import { EntryRecorder } from "./entry-recorder.js";
import { foldText, freshFolds, type ListingFolds, resumeFolds, saveFolds } from "./fold-state.js";
import { indexRules } from "./index-rules.js";
import { readBytes, readLineChunks, readWholeLines } from "./line-chunks.js";
import type { FileRow, FileUpdate, Statements } from "./statements.js";
import type { Answered } from "./stored-answer.js";
import { UsageFold } from "./usage-fold.js";
import type { WriteBatch } from "./write-batch.js";

/** How much of a file a row holds: its listing, with its text, or every record too. */
export const DEPTH = { listing: 0, text: 1, full: 2 } as const;

/** One of {@link DEPTH}'s values. */
export type Depth = (typeof DEPTH)[keyof typeof DEPTH];

/** SHA-1 of a line's bytes (the last indexed line is checked by it). */
export const hashLine = (bytes: Uint8Array): Buffer => createHash("sha1").update(bytes).digest();

/** What indexing a file left: its row, and the file's answer at the row's stamp. */
export interface Indexed {
  readonly row: FileRow;
  /** With the joined text of every line (the caller drops it when not wanted). */
  readonly answer: Answered | null;
}

/** The answer of folds at a file's committed end, with the torn remainder folded in unstored. */
export function finishAnswer(
  fd: number,
  stats: Stats,
  path: string,
  committed: number,
  folds: ListingFolds,
): Answered | null {
  const scanner = new JsonlScanner(folds.shape);
  const torn = stats.size > committed;
  if (torn) scanner.push(readBytes(fd, committed, stats.size - committed).toString("utf8"));
  if (!scanner.end()) return null;
  const info = folds.info.finish(path, stats.mtime);
  if (info === null) return null;
  // The committed part ends with a newline; a remainder never holds one.
  const endsWithNewline = !torn && committed > 0;
  return { info, shape: folds.shape.finish(endsWithNewline, stats.size) };
}

/** The rows of one file, written on `batch`'s connection. */
export class FileIndexer {
  constructor(
    private readonly st: Statements,
    private readonly path: string,
    private readonly batch: WriteBatch,
  ) {}

  /** Asks the stored records of a file (up to its `lines`) about ids. */
  storedIds(fileId: number, lines: number): StoredIds {
    return {
      hasId: (id) => this.st.hasId.get(fileId, id, lines) !== undefined,
      hasParent: (id) => this.st.hasParent.get(fileId, id, lines) !== undefined,
    };
  }

  /**
   * The row alone, from the file's start: the listing's folds, answer and (maybe) text; written
   * over row `reuse` (one without records) when given.
   */
  listing(fd: number, stats: Stats, depth: Depth, reuse?: number): Indexed {
    const folds = freshFolds();
    const scanner = new JsonlScanner(folds.shape);
    let stopped = false;
    const read = readWholeLines(fd, 0, stats.size, (text) => {
      stopped = !scanner.push(text);
      return !stopped;
    });
    return this.write(fd, stats, reuse, {
      folds,
      committed: read.end,
      lastStart: read.lastStart,
      lines: scanner.lineCount,
      stopped,
      depth,
    });
  }

  /**
   * Every record after the row's committed bytes (all of them without a row), with the folds
   * resumed at the row's saved state: the row, the records, their text and the usage state.
   * Without a row, `reuse` names a row without records to write over: deleting a row costs a
   * look for its records, a scan of them all while a build runs without the `entries` indexes.
   */
  records(fd: number, stats: Stats, row: FileRow | undefined, reuse?: number): Indexed {
    const text = row === undefined ? "" : (this.st.textOf.get(row.id)?.all_text ?? "");
    const resumed = row && resumeFolds(row.folds, text, this.storedIds(row.id, row.lines));
    if (row !== undefined && resumed === undefined) {
      // Saved under other rules (the caller checks) or not savable: fold from the start.
      this.st.deleteFile.run(row.id);
      return this.records(fd, stats, undefined);
    }
    const folds = resumed ?? freshFolds();
    const fileId = row?.id ?? reuse ?? this.insertEmpty(stats);
    const base = { committed: row?.committed ?? 0, lines: row?.lines ?? 0 };
    const usage = new UsageFold(this.batch.db, fileId, row !== undefined);
    const recorder = new EntryRecorder(this.batch.db, fileId, folds, base.lines, usage);
    const scanner = new JsonlScanner(recorder);
    let lastStart = row?.last_start ?? 0;
    let committed = base.committed;
    let lines = base.lines;
    if (row?.stopped !== 1) {
      readLineChunks(fd, base.committed, stats.size, (chunk) => {
        recorder.at(chunk, scanner.lineCount);
        const going = scanner.push(chunk.text);
        lastStart = chunk.starts.at(-1) ?? lastStart;
        committed = chunk.end;
        lines += chunk.starts.length;
        return going;
      });
    }
    const indexed = this.write(fd, stats, fileId, {
      folds,
      committed,
      lastStart,
      lines,
      stopped: row?.stopped === 1 || recorder.stopped,
      depth: DEPTH.full,
    });
    usage.write();
    return indexed;
  }

  /** Writes the row (and text) for folds that have seen the lines up to `committed`. */
  private write(
    fd: number,
    stats: Stats,
    fileId: number | undefined,
    at: {
      readonly folds: ListingFolds;
      readonly committed: number;
      readonly lastStart: number;
      readonly lines: number;
      readonly stopped: boolean;
      readonly depth: Depth;
    },
  ): Indexed {
    const { folds, committed, lastStart } = at;
    const last = committed > lastStart ? readBytes(fd, lastStart, committed - lastStart) : null;
    const saved = saveFolds(folds);
    const committedText = at.depth === DEPTH.full ? foldText(folds) : null;
    // The answer at this stamp, torn tail and all (after the state above is saved: it is of
    // the committed lines, and finishing runs the folds over the rest).
    const answer = at.stopped ? null : finishAnswer(fd, stats, this.path, committed, folds);
    const update: FileUpdate = {
      path: this.path,
      dir: dirname(this.path),
      dev: stats.dev,
      ino: stats.ino,
      size: stats.size,
      mtime_ms: stats.mtimeMs,
      ctime_ms: stats.ctimeMs,
      committed,
      lines: at.lines,
      last_start: lastStart,
      last_hash: last === null ? null : hashLine(last),
      stopped: at.stopped ? 1 : 0,
      rules: indexRules(),
      folds: saved,
      filled: at.depth,
      settled: 0,
      answer: encodeListingAnswer(answer),
      session: answer === null ? 0 : 1,
      session_id: answer?.info.id ?? null,
      cwd: answer === null || answer.info.cwd === "" ? null : answer.info.cwd,
    };
    // A row with records keeps the text of its committed lines (a catch-up folds on from it);
    // a listing's row, the answer's own text, torn tail and all (it is never folded on).
    const text =
      at.depth === DEPTH.full
        ? committedText
        : at.depth === DEPTH.text
          ? (answer?.info.allMessagesText ?? "")
          : null;
    let id = fileId;
    if (id === undefined) id = this.st.insertFile.run(update);
    else this.st.updateFile.run(id, update);
    this.st.setText(id, text);
    return { row: { ...update, id }, answer };
  }

  /** A new row with nothing indexed, for the records to point at. */
  private insertEmpty(stats: Stats): number {
    return this.st.insertFile.run({
      path: this.path,
      dir: dirname(this.path),
      dev: stats.dev,
      ino: stats.ino,
      size: 0,
      mtime_ms: 0,
      ctime_ms: 0,
      committed: 0,
      lines: 0,
      last_start: 0,
      last_hash: null,
      stopped: 0,
      rules: "",
      folds: "",
      filled: DEPTH.listing,
      settled: 0,
      answer: null,
      session: 0,
      session_id: null,
      cwd: null,
    });
  }
}
