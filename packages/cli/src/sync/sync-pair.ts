/**
 * Syncing one session between two roots: both files end up holding the merge of both copies
 * (core's `mergeSessions`), a copy missing on one side is created there. Under our writer lock
 * on both files (taken in path order, so two syncs never wait on each other in a circle); a
 * live lock held elsewhere (a pi on our engine, another sync) is waited for briefly, then the
 * session is skipped with one line. A file that changes while it is synced is merged again.
 */

import { existsSync } from "node:fs";
import { dirname } from "node:path";
import {
  InvalidSessionError,
  type MergeResult,
  mergeSessions,
  NotRegularFileError,
  type RenamedEntry,
  SessionLockedError,
  SessionMismatchError,
} from "@pi-sessions/core";
import { acquireLock, ensureDir, type Lock } from "@pi-sessions/core/internal";
import { oneLine } from "../io/errors.js";
import {
  type OldFile,
  OldFileFolders,
  oldFilesOf,
  settleOldFiles,
  sleep,
  withOldFiles,
} from "./old-files.js";
import {
  changeFor,
  closeSnapshot,
  commitFile,
  type FileChange,
  FileMovedError,
  type FileSnapshot,
  oldFileName,
  readSnapshot,
} from "./session-file.js";

/** What the sync did (or, dry, would do) to one session. */
export interface PairResult {
  /** `--<cwd>--/<file>.jsonl`, the same under both roots. */
  readonly session: string;
  /** `synced`/`would-sync`: a side changed (or would); `up-to-date`: neither needed to. */
  readonly status: "up-to-date" | "synced" | "would-sync" | "skipped" | "failed";
  /** What happened to the first side's file. */
  readonly a?: FileChange;
  /** What happened to the second side's file (or the server's log). */
  readonly b?: FileChange;
  /** Entries the first side received from the second. */
  readonly toA?: number;
  /** Entries the second side received from the first. */
  readonly toB?: number;
  /** Colliding ids re-minted (SPEC §14 M2). */
  readonly renamed?: readonly RenamedEntry[];
  /** Where pi continues after the sync (the merged file's last entry). */
  readonly leafId?: string | null;
  /** Why it was skipped or failed. */
  readonly message?: string;
}

/** Options of {@link syncPair}. */
export interface PairOptions {
  /** Read both sides and say what would change; write nothing, take no lock. */
  readonly dryRun: boolean;
  /** How long to wait for a lock held elsewhere before skipping (ms). */
  readonly lockWaitMs: number;
}

/** How often a session that keeps changing under the sync is merged again before giving up. */
const ATTEMPTS = 8;

/** Takes our lock on `path`, waiting up to `waitMs` for a live holder (else its error). */
export async function lockWithin(path: string, waitMs: number): Promise<Lock | SessionLockedError> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      ensureDir(dirname(path));
      return acquireLock(path);
    } catch (error) {
      if (!(error instanceof SessionLockedError)) throw error;
      if (Date.now() >= until) return error;
      await sleep(50);
    }
  }
}

/** The merge of the copies that exist (one alone is the result as it is). */
function mergeAll(a: Buffer | undefined, b: Buffer | undefined): MergeResult | Buffer {
  if (a === undefined || b === undefined) return (a ?? b) as Buffer;
  return mergeSessions(a, b);
}

/** The result line of a merge (or a copy) of `a` and `b`. */
function resultOf(
  session: string,
  status: PairResult["status"],
  a: FileChange = "unchanged",
  b: FileChange = "unchanged",
  merged: MergeResult | Buffer,
): PairResult {
  if (Buffer.isBuffer(merged)) {
    return {
      session,
      status: a === "unchanged" && b === "unchanged" ? "up-to-date" : status,
      a,
      b,
    };
  }
  const { entries, renamed, leafId } = merged.report;
  const done = a === "unchanged" && b === "unchanged";
  return {
    session,
    status: done ? "up-to-date" : status,
    a,
    b,
    toA: entries.b,
    toB: entries.a,
    renamed,
    leafId,
  };
}

/** Why a pair cannot be merged, as a result; rethrows what is not about the copies. */
function failure(session: string, error: unknown): PairResult {
  if (
    error instanceof InvalidSessionError ||
    error instanceof SessionMismatchError ||
    error instanceof NotRegularFileError
  ) {
    return { session, status: "failed", message: oneLine(error) };
  }
  throw error;
}

/** Syncs the session at `pathA` and `pathB` (at least one exists). */
export function syncPair(
  session: string,
  pathA: string,
  pathB: string,
  options: PairOptions,
): Promise<PairResult> {
  return syncSession(session, pathA, pathB, options, new OldFileFolders());
}

/** {@link syncPair} within a sync run, whose old-file listings `folders` holds. */
export async function syncSession(
  session: string,
  pathA: string,
  pathB: string,
  options: PairOptions,
  folders: OldFileFolders,
): Promise<PairResult> {
  if (options.dryRun) {
    const [a, b] = [readSnapshot(pathA), readSnapshot(pathB)];
    const olds: OldFile[] = [];
    try {
      olds.push(...oldFilesOf(pathA, folders, false));
      const oldsA = olds.length;
      olds.push(...oldFilesOf(pathB, folders, false));
      const merged = mergeAll(
        withOldFiles(a.bytes, olds.slice(0, oldsA)),
        withOldFiles(b.bytes, olds.slice(oldsA)),
      );
      const bytes = Buffer.isBuffer(merged) ? merged : merged.bytes;
      return resultOf(session, "would-sync", changeFor(a, bytes), changeFor(b, bytes), merged);
    } catch (error) {
      return failure(session, error);
    } finally {
      for (const side of [a, b, ...olds.map((old) => old.snapshot)]) closeSnapshot(side);
    }
  }
  const locks: Lock[] = [];
  try {
    for (const path of [pathA, pathB].sort()) {
      const lock = await lockWithin(path, options.lockWaitMs);
      if (lock instanceof SessionLockedError) {
        return { session, status: "skipped", message: oneLine(lock) };
      }
      locks.push(lock);
    }
    return await syncLocked(session, pathA, pathB, options.lockWaitMs, folders);
  } finally {
    for (const lock of locks) lock.release();
  }
}

/**
 * The sync itself, both locks held: read, merge, write each side; a file that moved is merged
 * again. Each side's copy includes its old files (inodes an earlier sync replaced while a pi
 * process still wrote them, `old-files.ts`). A file replaced here keeps its old inode under a
 * second name; once nobody writes it (or `waitMs` passed), what it gained is appended to both
 * sides ({@link settleOldFiles}) — appended, not merged into another replace, which a writer
 * appending faster than a replace takes could keep racing forever.
 */
async function syncLocked(
  session: string,
  pathA: string,
  pathB: string,
  waitMs: number,
  folders: OldFileFolders,
): Promise<PairResult> {
  const olds: OldFile[] = []; // kept from earlier syncs, then replaced here: all open
  let settled = false;
  try {
    const keptA = oldFilesOf(pathA, folders);
    const keptB = oldFilesOf(pathB, folders);
    olds.push(...keptA, ...keptB);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const sides = [readSnapshot(pathA), readSnapshot(pathB)] as const;
      const replaced = new Set<FileSnapshot>();
      try {
        const merged = mergeAll(
          withOldFiles(sides[0].bytes, keptA),
          withOldFiles(sides[1].bytes, keptB),
        );
        const bytes = Buffer.isBuffer(merged) ? merged : merged.bytes;
        const [a, b] = sides.map((side) => {
          const change = commitFile(side, bytes);
          if (change === "replaced") {
            replaced.add(side);
            const name = oldFileName(side.path, side.ino);
            olds.push({ snapshot: side, name: existsSync(name) ? name : undefined });
          }
          return change;
        }) as [FileChange, FileChange];
        settled = true;
        const message = await settleOldFiles([pathA, pathB], olds, waitMs);
        const result = resultOf(session, "synced", a, b, merged);
        return message === undefined ? result : { ...result, message };
      } catch (error) {
        if (!(error instanceof FileMovedError)) return failure(session, error);
      } finally {
        for (const side of sides) if (!replaced.has(side)) closeSnapshot(side);
      }
    }
  } catch (error) {
    return failure(session, error);
  } finally {
    if (!settled) for (const old of olds) closeSnapshot(old.snapshot);
  }
  const message = `kept changing while it was synced (${ATTEMPTS} attempts); run sync again`;
  return { session, status: "failed", message };
}
