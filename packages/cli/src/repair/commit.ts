/**
 * Writing a planned repair: under the session's writer lock, check the file still holds the
 * bytes the plan was made from, copy those bytes to a backup, then replace the file with
 * core's `writeFileAtomic` (temp file in the same directory, fsync, rename, fsync the
 * directory: W3). Both writes take bytes, so a damaged line that is not valid UTF-8 comes
 * back byte for byte.
 */

import { readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { SessionLockedError } from "@pi-sessions/core";
import { acquireLock, writeFileAtomic } from "@pi-sessions/core/internal";
import { CliError, ExitCode, oneLine } from "../io/errors.js";
import type { RepairPlan } from "./plan.js";

/** Longest part of the file name kept in the backup's name, so it stays far below 255 bytes. */
const NAME_BYTES = 120;

/** `name` cut to at most `max` UTF-8 bytes without splitting a character. */
function cutName(name: string, max: number): string {
  let out = "";
  for (const ch of name) {
    if (Buffer.byteLength(out + ch) > max) break;
    out += ch;
  }
  return out;
}

/**
 * The backup path of a file: `<name>.<UTC time>.bak` beside it. It does not end in `.jsonl`,
 * so listings and discovery never take a backup for a session.
 */
export function backupPathFor(path: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return join(dirname(path), `${cutName(basename(path), NAME_BYTES)}.${stamp}.bak`);
}

/** Replaces `path` with `bytes` atomically (core's `writeFileAtomic`); its mode is kept. */
export function replaceFileAtomic(path: string, bytes: Uint8Array): void {
  writeFileAtomic(path, bytes, { mode: statSync(path).mode & 0o777 });
}

/**
 * Applies a plan to `path`: takes the lock (another live writer makes this fail with exit 2),
 * refuses if the file changed since the plan was made, writes the backup (exact original
 * bytes), then the new content. Returns the backup path.
 */
export function commitRepair(path: string, plan: RepairPlan, now: Date = new Date()): string {
  let lock: ReturnType<typeof acquireLock>;
  try {
    lock = acquireLock(path);
  } catch (error) {
    if (error instanceof SessionLockedError) {
      throw new CliError(`${path} is in use: ${oneLine(error)}`, ExitCode.usage);
    }
    throw new CliError(`cannot lock ${path}: ${oneLine(error)}`, ExitCode.usage);
  }
  try {
    if (!readFileSync(path).equals(plan.original)) {
      throw new CliError(`${path} changed while it was being read; run the command again`);
    }
    const backup = backupPathFor(path, now);
    // Exclusive: a backup is never overwritten, and appears complete or not at all.
    writeFileAtomic(backup, plan.original, { exclusive: true, mode: statSync(path).mode & 0o777 });
    replaceFileAtomic(path, plan.output);
    return backup;
  } finally {
    lock.release();
  }
}
