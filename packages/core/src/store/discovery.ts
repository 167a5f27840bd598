/**
 * Finding sessions by header only (SPEC §10.3–§10.4). Only reads (W13), never creates a
 * directory, and tolerates files that vanish while the directory is scanned (§1.6).
 */

import { fstatSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { resolveCwd } from "../env/paths.js";
import { JsonlScanner, type JsonRecord } from "../format/parse.js";
import { isValidHeader } from "../format/record-rules.js";
import type { SessionHeader } from "../schema/types.js";
import { readOrNull, readText } from "./read-chunks.js";
import { samePath } from "./session-files.js";

/** How far {@link readHeader} looks for the first record by default: 1 MiB, as R1.6 does. */
export const HEADER_SCAN_LIMIT = 1024 * 1024;

/** Read size for header scans: most headers are a few hundred bytes. */
const HEADER_CHUNK_BYTES = 64 * 1024;

/** Buffer for {@link readHeader}; safe to share because the function is synchronous. */
let headerBuffer: Buffer | undefined;

/**
 * The header of a session file, reading only as far as its first record (SPEC §2.2; malformed
 * lines before it, non-objects included by [Fix] W6, are skipped). `null` if that record is not
 * a valid header, the file cannot be read, or no record ends within `limit` bytes: a line
 * counts only when its `\n`, or the file's end, lies within the limit (R1.6's boundary).
 */
export function readHeader(path: string, limit: number = HEADER_SCAN_LIMIT): SessionHeader | null {
  return readOrNull(path, (fd) => {
    headerBuffer ??= Buffer.allocUnsafe(HEADER_CHUNK_BYTES);
    let first: JsonRecord | undefined;
    const scanner = new JsonlScanner({
      record: (record) => {
        first = record;
        return false;
      },
      issue: () => true,
    });
    const read = readText(fd, headerBuffer, (text) => scanner.push(text), limit);
    // The whole file lies within the limit: its last line counts without a `\n`.
    if (!read.stopped && (read.bytes < limit || fstatSync(fd).size <= limit)) scanner.end();
    return first !== undefined && isValidHeader(first) ? first : null;
  });
}

/**
 * Whether a header's `cwd` matches a working directory (SPEC §10.3): both resolved, compared
 * case-insensitively on Windows. A missing or empty header cwd matches when `emptyMatches`
 * ([Fix] W17's rule for the default directory), not otherwise (R1.6's for a custom one).
 */
export function cwdMatches(headerCwd: unknown, cwd: string, emptyMatches = true): boolean {
  if (typeof headerCwd !== "string" || headerCwd === "") return emptyMatches;
  return samePath(resolveCwd(headerCwd), resolveCwd(cwd));
}

/**
 * The `*.jsonl` paths of a directory (not recursive), in listing order; `[]` if it is missing
 * or unreadable (or, under the sessions root, a symlink to a file or a broken one).
 */
export function jsonlPaths(dir: string): string[] {
  try {
    const names = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
    // `join(dir, name)` for every name, normalising `dir` once: a file name holds no separator
    // and is never "." or "..", so only the directory part needs normalising (10,000 files).
    const prefix = join(dir, "x").slice(0, -1);
    return names.map((name) => prefix + name);
  } catch {
    return [];
  }
}

/** Whether `path` has a valid header with this `id` and a cwd matching `wanted` (when given). */
function headerMatches(
  path: string,
  wanted: string | undefined,
  emptyCwdMatches: boolean,
  id?: string,
): boolean {
  const header = readHeader(path);
  if (header === null || (id !== undefined && header.id !== id)) return false;
  return wanted === undefined || cwdMatches(header.cwd, wanted, emptyCwdMatches);
}

/**
 * The most recent session file of `dir` (SPEC §10.3): by mtime, newest first (ties keep
 * directory order), the first with a valid header whose cwd matches `cwd` when given. A file
 * that vanishes meanwhile is skipped, where R1.6 would give up on the whole directory.
 */
export function findMostRecentSession(
  dir: string,
  cwd?: string,
  emptyCwdMatches = true,
): string | null {
  const files: { path: string; mtimeMs: number }[] = [];
  for (const path of jsonlPaths(dir)) {
    try {
      files.push({ path, mtimeMs: statSync(path).mtimeMs });
    } catch {
      // Deleted since the directory was read.
    }
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const wanted = cwd === undefined ? undefined : resolveCwd(cwd);
  return files.find(({ path }) => headerMatches(path, wanted, emptyCwdMatches))?.path ?? null;
}

/** The first `*.jsonl` of `dir` whose header has this `id` and a matching cwd (SPEC §10.4). */
export function findSessionById(
  dir: string,
  id: string,
  filterCwd?: string,
  emptyCwdMatches = true,
): string | undefined {
  const wanted = filterCwd === undefined ? undefined : resolveCwd(filterCwd);
  return jsonlPaths(dir).find((path) => headerMatches(path, wanted, emptyCwdMatches, id));
}
