/**
 * Finding sessions by header only (SPEC §10.3–§10.4): the most recent session of a directory
 * and a session by id. Everything here only reads (W13), never creates a directory, and
 * tolerates files that vanish while the directory is scanned (§1.6).
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
 * The header of a session file, reading only as far as its first record (SPEC §2.2): blank
 * and malformed lines before it are skipped ([Fix] W6: lines that are JSON but not objects
 * count as malformed). Returns `null` if that record is not a valid header, if the file cannot
 * be read, or if no record ends within the first `limit` bytes: a line counts only when its
 * `\n` lies within the limit, or when the file ends within the limit (R1.6's boundary). Pass
 * `Infinity` to scan without limit.
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
 * Whether a header's `cwd` matches a working directory (SPEC §10.3): both are resolved (`~`,
 * `file://`, relative paths, normalisation) and compared, case-insensitively on Windows. A
 * header cwd that is missing, not a string or empty matches when `emptyMatches` is true —
 * [Fix] W17's rule for the default directory, and the default here — and does not match
 * otherwise, which is R1.6's rule for a custom session directory.
 */
export function cwdMatches(headerCwd: unknown, cwd: string, emptyMatches = true): boolean {
  if (typeof headerCwd !== "string" || headerCwd === "") return emptyMatches;
  return samePath(resolveCwd(headerCwd), resolveCwd(cwd));
}

/** The `*.jsonl` names of a directory, in directory-listing order. Throws if unreadable. */
function jsonlNames(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
}

/**
 * The most recent session file of `dir` (SPEC §10.3): the `*.jsonl` files sorted by mtime,
 * newest first (ties keep directory order), and the first whose header is valid and — when
 * `cwd` is given — whose header cwd matches it per {@link cwdMatches}. `null` if there is none
 * or the directory cannot be read. A file that vanishes meanwhile is skipped, where R1.6 would
 * give up on the whole directory.
 */
export function findMostRecentSession(
  dir: string,
  cwd?: string,
  emptyCwdMatches = true,
): string | null {
  let names: string[];
  try {
    names = jsonlNames(dir);
  } catch {
    return null;
  }
  const files: { path: string; mtimeMs: number }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      files.push({ path, mtimeMs: statSync(path).mtimeMs });
    } catch {
      // Deleted since the directory was read.
    }
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const wanted = cwd === undefined ? undefined : resolveCwd(cwd);
  for (const { path } of files) {
    const header = readHeader(path);
    if (header === null) continue;
    if (wanted === undefined || cwdMatches(header.cwd, wanted, emptyCwdMatches)) return path;
  }
  return null;
}

/**
 * The first `*.jsonl` file of `dir`, in directory-listing order, whose header has exactly this
 * `id` and, when `filterCwd` is given, a cwd that matches it per {@link cwdMatches} (SPEC
 * §10.4). Reads headers only. `undefined` if none matches or the directory cannot be read.
 */
export function findSessionById(
  dir: string,
  id: string,
  filterCwd?: string,
  emptyCwdMatches = true,
): string | undefined {
  let names: string[];
  try {
    names = jsonlNames(dir);
  } catch {
    return undefined;
  }
  const wanted = filterCwd === undefined ? undefined : resolveCwd(filterCwd);
  for (const name of names) {
    const path = join(dir, name);
    const header = readHeader(path);
    if (header === null || header.id !== id) continue;
    if (wanted === undefined || cwdMatches(header.cwd, wanted, emptyCwdMatches)) return path;
  }
  return undefined;
}
