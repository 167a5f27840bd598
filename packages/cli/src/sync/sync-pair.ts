/**
 * Syncing one session between two roots: both files end up holding the merge of both copies
 * (core's `mergeSessions`), a copy missing on one side is created there. Under our writer lock
 * on both files (taken in path order, so two syncs never wait on each other in a circle); a
 * live lock held elsewhere (a pi on our engine, another sync) is waited for briefly, then the
 * session is skipped with one line. A file that changes while it is synced is merged again.
 */

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
  changeFor,
  closeSnapshot,
  commitFile,
  type FileChange,
  FileMovedError,
  type FileSnapshot,
  grownSince,
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

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

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
function mergeAll(a: FileSnapshot, b: FileSnapshot): MergeResult | Buffer {
  const copies = [a.bytes, b.bytes].filter((x): x is Buffer => x !== undefined);
  if (copies.length === 1) return copies[0] as Buffer;
  let result = mergeSessions(copies[0] as Buffer, copies[1] as Buffer);
  const renamed = [...result.report.renamed];
  for (const extra of copies.slice(2)) {
    result = mergeSessions(result.bytes, extra);
    renamed.push(...result.report.renamed);
  }
  return { ...result, report: { ...result.report, renamed } };
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
export async function syncPair(
  session: string,
  pathA: string,
  pathB: string,
  options: PairOptions,
): Promise<PairResult> {
  if (options.dryRun) {
    const [a, b] = [readSnapshot(pathA), readSnapshot(pathB)];
    try {
      const merged = mergeAll(a, b);
      const bytes = Buffer.isBuffer(merged) ? merged : merged.bytes;
      return resultOf(session, "would-sync", changeFor(a, bytes), changeFor(b, bytes), merged);
    } catch (error) {
      return failure(session, error);
    } finally {
      closeSnapshot(a);
      closeSnapshot(b);
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
    return await syncLocked(session, pathA, pathB);
  } finally {
    for (const lock of locks) lock.release();
  }
}

/**
 * How long a replaced file's old inode is watched after the last write: a pi process that
 * opened the path just before the rename writes its line there a moment later.
 */
export const SETTLE_MS = 20;

/**
 * The sync itself, both locks held: read, merge, write each side; a file that moved is merged
 * again. A replaced file may have been appended to up to the rename (and a moment after, by a
 * pi process that opened the path just before it): its old inode stays open, and what it
 * gained is appended to both sides ({@link catchUp}) — appended, not merged into another
 * replace, which a writer appending faster than a replace takes could keep racing forever.
 */
async function syncLocked(session: string, pathA: string, pathB: string): Promise<PairResult> {
  const watched: FileSnapshot[] = []; // replaced files, their old inodes still open
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const sides = [readSnapshot(pathA), readSnapshot(pathB)] as const;
      try {
        const merged = mergeAll(sides[0], sides[1]);
        const bytes = Buffer.isBuffer(merged) ? merged : merged.bytes;
        const [a, b] = sides.map((side) => {
          const change = commitFile(side, bytes);
          if (change === "replaced") watched.push(side);
          return change;
        }) as [FileChange, FileChange];
        if (watched.length > 0) {
          await sleep(SETTLE_MS);
          catchUp(
            [pathA, pathB],
            watched.flatMap((side) => grownSince(side, side.size) ?? []),
          );
        }
        return resultOf(session, "synced", a, b, merged);
      } catch (error) {
        if (!(error instanceof FileMovedError)) return failure(session, error);
      } finally {
        for (const side of sides) if (!watched.includes(side)) closeSnapshot(side);
      }
    }
  } finally {
    for (const side of watched) closeSnapshot(side);
  }
  const message = `kept changing while it was synced (${ATTEMPTS} attempts); run sync again`;
  return { session, status: "failed", message };
}

/**
 * Appends to each file the lines of `olds` (old contents of replaced files) that it lacks, in
 * their order, without a rename (so no further old inode): the end of a sync that writers kept
 * racing. A line may then follow a child pi appended meanwhile; pi and our loader build the
 * tree by id either way, and the next sync orders them.
 */
export function catchUp(paths: readonly string[], olds: readonly Buffer[]): void {
  for (const path of paths) {
    for (const old of olds) {
      const side = readSnapshot(path);
      try {
        if (side.bytes === undefined) continue;
        const missing = mergeSessions(side.bytes, old, { collisions: "keep-a" }).lines.filter(
          (l) => l.origin === "b",
        );
        if (missing.length === 0) continue;
        const tail = Buffer.concat(missing.flatMap((l) => [l.bytes, Buffer.from("\n")]));
        const lead =
          side.bytes.length > 0 && side.bytes.at(-1) !== 0x0a ? Buffer.from("\n") : Buffer.alloc(0);
        commitFile(side, Buffer.concat([side.bytes, lead, tail]));
      } finally {
        closeSnapshot(side);
      }
    }
  }
}
