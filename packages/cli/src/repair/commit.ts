/**
 * Writing a planned repair: under the session's writer lock, check the file still holds the
 * bytes the plan was made from, copy those bytes to a backup, then replace the file atomically
 * (temp file in the same directory, fsync, rename, fsync the directory — the W3 procedure of
 * core's `writeFileAtomic`, here for raw bytes: core's writer takes strings, and a damaged line
 * that is not valid UTF-8 must come back byte for byte).
 */

import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { acquireLock, SessionLockedError } from "@pi-sessions/core";
import { CliError, ExitCode, oneLine } from "../errors.js";
import type { RepairPlan } from "./plan.js";

/** Longest part of the file name kept in derived names, so they stay far below 255 bytes. */
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

/** Writes all of `bytes` to a new file (exclusive create) and fsyncs it. */
function writeNewFile(path: string, bytes: Buffer, mode: number): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsyncs a directory so a rename in it survives power loss; skipped where unsupported. */
function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY);
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the rename is visible regardless.
  } finally {
    closeSync(fd);
  }
}

/** Replaces `path` with `bytes` atomically; the original mode is kept. */
export function replaceFileAtomic(path: string, bytes: Buffer): void {
  const mode = statSync(path).mode & 0o777;
  const temp = join(
    dirname(path),
    `.${cutName(basename(path), NAME_BYTES)}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    writeNewFile(temp, bytes, mode);
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Never created, or already renamed.
    }
    throw error;
  }
  fsyncDir(dirname(path));
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
    writeNewFile(backup, plan.original, statSync(path).mode & 0o777);
    replaceFileAtomic(path, plan.output);
    return backup;
  } finally {
    lock.release();
  }
}
