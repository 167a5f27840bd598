/**
 * Writing a planned repair: under the session's writer lock, check the file still holds the
 * bytes the plan was made from, copy those bytes to a backup, then replace the file with
 * core's `writeFileAtomic` (temp file in the same directory, fsync, rename, fsync the
 * directory: W3). Both writes take bytes, so a damaged line that is not valid UTF-8 comes
 * back byte for byte, and both keep the file's mode, owner and group. A read-only file is
 * only rewritten when asked (`--force`).
 */

import { statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { SessionLockedError } from "@pi-sessions/core";
import { acquireLock, readRegularFile, writeFileAtomic } from "@pi-sessions/core/internal";
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

/** What a rewrite keeps of the file it replaces: its exact mode, owner and group. */
export interface KeptAttributes {
  /** Permission bits (with set-id and sticky bits): `stat().mode & 0o7777`. */
  readonly mode: number;
  /** Owner. */
  readonly uid: number;
  /** Group. */
  readonly gid: number;
}

/** The attributes of `path` a rewrite keeps. */
export function attributesOf(path: string): KeptAttributes {
  const { mode, uid, gid } = statSync(path);
  return { mode: mode & 0o7777, uid, gid };
}

/**
 * Replaces `path` with `bytes` atomically (core's `writeFileAtomic`); its mode, owner and group
 * are kept (the new file gets them before it takes the name, or the write fails unapplied).
 */
export function replaceFileAtomic(path: string, bytes: Uint8Array): void {
  writeFileAtomic(path, bytes, { like: attributesOf(path) });
}

/** Options of {@link commitRepair}. */
export interface CommitOptions {
  /** Rewrite a read-only file too (its mode, owner and group are kept). */
  readonly force?: boolean;
  /** The time in the backup's name. */
  readonly now?: Date;
}

/**
 * Why a file is not rewritten unless forced: nobody may write to it by its mode (the owner's
 * write bit is off, as after `chmod a-w`). Someone made it read-only on purpose; a rename
 * would replace it all the same, so the mode is asked rather than `access()`, which says
 * "writable" to root whatever the bits.
 */
function readOnlyRefusal(path: string, attributes: KeptAttributes): CliError | undefined {
  if ((attributes.mode & 0o200) !== 0) return undefined;
  const mode = (attributes.mode & 0o777).toString(8).padStart(4, "0");
  return new CliError(
    `not rewriting ${path}: it is read-only (mode ${mode}); add --force to rewrite it anyway (its mode, owner and group are kept)`,
    ExitCode.usage,
  );
}

/**
 * Applies a plan to `path`: refuses a read-only file unless `force`, takes the lock (another
 * live writer makes this fail with exit 2), refuses if the file changed since the plan was
 * made, writes the backup (exact original bytes, with the file's mode, owner and group), then
 * the new content (keeping them too). Returns the backup path.
 */
export function commitRepair(path: string, plan: RepairPlan, options: CommitOptions = {}): string {
  const attributes = attributesOf(path);
  if (options.force !== true) {
    const refusal = readOnlyRefusal(path, attributes);
    if (refusal !== undefined) throw refusal;
  }
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
    if (!readRegularFile(path).equals(plan.original)) {
      throw new CliError(`${path} changed while it was being read; run the command again`);
    }
    const backup = backupPathFor(path, options.now ?? new Date());
    try {
      // Exclusive: a backup is never overwritten, and appears complete or not at all.
      writeFileAtomic(backup, plan.original, { exclusive: true, like: attributes });
      writeFileAtomic(path, plan.output, { like: attributes });
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`cannot rewrite ${path}: ${oneLine(error)}; it was left as it was`);
    }
    return backup;
  } finally {
    lock.release();
  }
}
