/** Finding sessions by header only (SPEC §10.3–§10.4): only reads (W13), skips vanished files. */

import { fstatSync } from "node:fs";
import { resolveCwd } from "../env/paths.js";
import { JsonlScanner, type JsonRecord } from "../format/parse.js";
import { isValidHeader } from "../format/record-rules.js";
import type { SessionHeader } from "../schema/types.js";
import { jsonlPaths } from "./jsonl-paths.js";
import { readOrNull, readText, statOrNull } from "./read-chunks.js";
import { samePath } from "./store-helpers.js";

/** How far {@link readHeader} looks for the first record by default: 1 MiB, as R1.6 does. */
export const HEADER_SCAN_LIMIT = 1024 * 1024;

/** Read size for header scans: most headers are a few hundred bytes. */
const HEADER_CHUNK_BYTES = 64 * 1024;

/** Buffer for {@link readHeader}; safe to share because the function is synchronous. */
let headerBuffer: Buffer | undefined;

/**
 * The header of a session file, reading only as far as its first record (SPEC §2.2; malformed lines
 * before it are skipped, [Fix] W6: non-objects too). `null` if that record is not a valid header,
 * the file is unreadable, or no line's `\n` (or the file's end) lies within `limit` bytes (R1.6's
 * rule).
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
 * Whether a header's `cwd` matches a working directory (SPEC §10.3); a missing or empty one
 * matches iff `emptyMatches` ([Fix] W17 in the default directory; not in a custom one, as R1.6).
 */
export function cwdMatches(headerCwd: unknown, cwd: string, emptyMatches = true): boolean {
  if (typeof headerCwd !== "string" || headerCwd === "") return emptyMatches;
  return samePath(resolveCwd(headerCwd), resolveCwd(cwd));
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
 * The most recent session file of `dir` (SPEC §10.3) with a valid header whose cwd matches `cwd`
 * when given; a file that vanishes meanwhile is skipped, where R1.6 gives up on the directory.
 */
export function findMostRecentSession(
  dir: string,
  cwd?: string,
  emptyCwdMatches = true,
): string | null {
  const files = jsonlPaths(dir).flatMap((path) => {
    const stats = statOrNull(path); // null: deleted since the directory was read
    return stats === null ? [] : [{ path, mtimeMs: stats.mtimeMs }];
  });
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
