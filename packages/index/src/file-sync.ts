/**
 * Brings one session file's rows up to date and answers its `SessionInfo` (and shape) as core's
 * listing would from the file itself. An unchanged file costs one `fstat` and a hash of its last
 * indexed line; a grown one is read from its last indexed line on, once that line is found
 * unchanged; a shrunk, replaced or rewritten one is indexed again from the start. Only complete
 * lines are committed: a torn last line is folded into the answer but left for the next run.
 * Files are only ever opened for reading. A settled row's stat alone can vouch for it too
 * (`settled.ts`); a file found to match its row while long unchanged is settled here.
 */

import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { JsonlScanner, type JsonRecord } from "@pi-sessions/core/internal";
import { EntryRecorder } from "./entry-recorder.js";
import { EMPTY_STATE, type FoldState, foldState, foldText, resumeFolds } from "./fold-state.js";
import { readBytes, readLineChunks } from "./line-chunks.js";
import { DEFAULT_SETTLE_MS, settleOf, trustedAnswer } from "./settled.js";
import type { FileRow, Settle, Statements } from "./statements.js";
import type { Answered, FileAnswer } from "./stored-answer.js";
import { UsageFold } from "./usage-fold.js";
import type { WriteBatch } from "./write-batch.js";

export type { FileAnswer } from "./stored-answer.js";

/** What a sync did to the index, for progress reports and tests. */
export type SyncKind = "unchanged" | "caught-up" | "indexed" | "gone";

const hash = (bytes: Buffer): Buffer => createHash("sha1").update(bytes).digest();

/** Where the last indexed line is read back for its hash (one buffer: the reads are sync). */
let scratch = Buffer.allocUnsafe(64 * 1024);

/** Whether `row` still describes the start of the open file: same file, last line unchanged. */
function resumable(fd: number, stats: Stats, row: FileRow): boolean {
  if (row.dev !== stats.dev || row.ino !== stats.ino || stats.size < row.committed) return false;
  if (row.last_hash === null) return true;
  const length = row.committed - row.last_start;
  if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, 2 * scratch.length));
  const n = readSync(fd, scratch, 0, length, row.last_start);
  return n === length && hash(scratch.subarray(0, length)).equals(row.last_hash);
}

/**
 * Runs `use` on the file open for reading, closing it after; `gone()` when it cannot be opened
 * or is not a regular file (both ways a listing says it is no session).
 */
function withOpenFile<T>(path: string, gone: () => T, use: (fd: number, stats: Stats) => T): T {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return gone();
  }
  try {
    const stats = fstatSync(fd);
    return stats.isFile() ? use(fd, stats) : gone();
  } finally {
    closeSync(fd);
  }
}

/** Whether `row` describes the open file as it is now: nothing to read but a torn tail. */
function isFresh(fd: number, stats: Stats, row: FileRow): boolean {
  return row.size === stats.size && row.mtime_ms === stats.mtimeMs && resumable(fd, stats, row);
}

/** What {@link FileSync.peek} found without writing: the row's answer if it is fresh. */
export type Peek =
  | { readonly state: "missing" | "stale" | "gone" }
  | { readonly state: "fresh"; readonly answer: FileAnswer | null; readonly fileId: number };

/** A sync of one open file; `withText` loads the info's joined message text. */
export class FileSync {
  kind: SyncKind = "unchanged";
  /** Set by {@link run} when the row may now answer by stat alone (written after the listing). */
  settle: Settle | undefined;

  constructor(
    private readonly st: Statements,
    private readonly path: string,
    private readonly batch: WriteBatch,
    private readonly settleMs = DEFAULT_SETTLE_MS,
  ) {}

  /**
   * The file's answer after bringing its rows up to date; `null` when it is gone, not a regular
   * file, or not a session (its first record is not a valid header), as core's listing says.
   */
  run(withText: boolean, withShape: boolean, known?: FileRow | null): FileAnswer | null {
    // Taken before the stat: every change after this moment gets a later ctime.
    const checkedAt = Date.now();
    return withOpenFile(
      this.path,
      () => this.gone(),
      (fd, stats) => {
        // `known`: the row as read with its neighbours at the listing's start (null: none).
        let row = known === undefined ? this.st.fileByPath.get(this.path) : (known ?? undefined);
        if (row === undefined || !isFresh(fd, stats, row)) {
          row = this.batch.write(() => this.update(fd, stats));
        }
        const answer = this.answer(fd, stats, row as FileRow, withText);
        this.settle = settleOf(row as FileRow, stats, checkedAt, this.settleMs, answer);
        if (answer === null || withShape) return answer;
        return { info: answer.info };
      },
    );
  }

  /**
   * The row's answer when it is fresh, without writing anything (for `verify`): the stored
   * answer when the file's stat vouches for it (it is what listings give), else the folds'.
   * A stored answer that differs from the folds' comes with theirs as `disagreeing`.
   */
  peek(): Peek {
    return withOpenFile(
      this.path,
      (): Peek => ({ state: "gone" }),
      (fd, stats) => {
        const row = this.st.fileByPath.get(this.path);
        if (row === undefined) return { state: "missing" };
        if (!isFresh(fd, stats, row)) return { state: "stale" };
        const folded = this.answer(fd, stats, row, true);
        const stored = trustedAnswer(row, stats, this.path, true, undefined);
        const fresh = (answer: FileAnswer | null): Peek => ({
          state: "fresh",
          answer,
          fileId: row.id,
        });
        if (stored === undefined) return fresh(folded);
        // The stored answer has no text of its own: it would come from the column the folds read.
        const text = folded?.info.allMessagesText ?? "";
        const shown = stored && { ...stored, info: { ...stored.info, allMessagesText: text } };
        if (isDeepStrictEqual(shown, folded)) return fresh(folded);
        // They differ, so `folded` is an answer where `shown` is none, or both are answers.
        if (shown === null) return fresh({ ...(folded as FileAnswer), disagreeing: null });
        return fresh({ ...shown, disagreeing: folded });
      },
    );
  }

  /** Forgets a file that is no longer there (or no longer a regular file). */
  private gone(): null {
    const row = this.st.fileByPath.get(this.path);
    if (row !== undefined) {
      this.st.deleteFile.run(row.id);
      this.kind = "gone";
    }
    return null;
  }

  /** Re-reads the row under the write lock (another process may have synced meanwhile). */
  private update(fd: number, stats: Stats): FileRow {
    const row = this.st.fileByPath.get(this.path);
    if (row !== undefined && resumable(fd, stats, row)) {
      if (isFresh(fd, stats, row)) return row;
      this.kind = "caught-up";
      return this.catchUp(fd, stats, row, JSON.parse(row.state) as FoldState);
    }
    this.kind = "indexed";
    if (row !== undefined) this.st.deleteFile.run(row.id);
    return this.catchUp(fd, stats, undefined, EMPTY_STATE);
  }

  /** Folds and stores the complete lines after the row's committed bytes; writes the row. */
  private catchUp(fd: number, stats: Stats, row: FileRow | undefined, state: FoldState): FileRow {
    const fileId = row?.id ?? this.insertEmpty(stats);
    const base = row ?? (this.st.fileByPath.get(this.path) as FileRow);
    const text = row === undefined ? "" : (this.st.textOf.get(fileId)?.all_text ?? "");
    const folds = resumeFolds(state, text, this.storedIds(fileId, base.lines));
    const usage = new UsageFold(this.batch.db, fileId, row !== undefined);
    const recorder = new EntryRecorder(this.batch.db, fileId, folds, base.lines, usage);
    const scanner = new JsonlScanner(recorder);
    let lastStart = base.last_start;
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
    const stopped = row?.stopped === 1 || recorder.stopped ? 1 : 0;
    const header = folds.info.header as unknown as JsonRecord | null;
    const last = committed > lastStart ? readBytes(fd, lastStart, committed - lastStart) : null;
    const update = {
      id: fileId,
      path: this.path,
      dir: dirname(this.path),
      dev: stats.dev,
      ino: stats.ino,
      size: stats.size,
      mtime_ms: stats.mtimeMs,
      ctime_ms: stats.ctimeMs,
      committed,
      lines,
      last_start: lastStart,
      last_hash: last === null ? null : hash(last),
      stopped,
      state: JSON.stringify(foldState(folds)),
      settled: 0,
      answer: null,
      all_text: foldText(folds),
      session_id: typeof header?.id === "string" ? header.id : null,
      cwd: typeof header?.cwd === "string" ? header.cwd : null,
    } as const;
    this.st.updateFile.run(update);
    usage.write();
    return { ...update, last_hash: update.last_hash };
  }

  private insertEmpty(stats: Stats): number {
    const empty = {
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
      state: JSON.stringify(EMPTY_STATE),
      settled: 0,
      answer: null,
      all_text: "",
      session_id: null,
      cwd: null,
    } as const;
    this.st.insertFile.run(empty);
    return (this.st.fileByPath.get(this.path) as FileRow).id;
  }

  private storedIds(fileId: number, lines: number) {
    return {
      hasId: (id: string) => this.st.hasId.get(fileId, id, lines) !== undefined,
      hasParent: (id: string) => this.st.hasParent.get(fileId, id, lines) !== undefined,
    };
  }

  /** The answer from the row with its shape, the torn remainder (if any) folded in unstored. */
  private answer(fd: number, stats: Stats, row: FileRow, withText: boolean): Answered | null {
    if (row.stopped === 1) return null;
    const text = withText ? (this.st.textOf.get(row.id)?.all_text ?? "") : "";
    const folds = resumeFolds(
      JSON.parse(row.state) as FoldState,
      text,
      this.storedIds(row.id, row.lines),
    );
    const scanner = new JsonlScanner(folds.shape);
    const torn = stats.size > row.committed;
    if (torn) {
      scanner.push(readBytes(fd, row.committed, stats.size - row.committed).toString("utf8"));
    }
    if (!scanner.end()) return null;
    const info = folds.info.finish(this.path, stats.mtime);
    if (info === null) return null;
    if (!withText) info.allMessagesText = "";
    // The committed part ends with a newline; a remainder never holds one.
    const endsWithNewline = !torn && row.committed > 0;
    return { info, shape: folds.shape.finish(endsWithNewline, stats.size) };
  }
}
