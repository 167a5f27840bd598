/**
 * Where `-o` may write a session's redaction or export: never over the session itself, another
 * session file, or anything that is not a regular file. The output is written by renaming a
 * temporary file into place, which replaces whatever name is there — a device node (as root,
 * `/dev/null` itself), a FIFO, a symbolic link — so those are refused before anything is written.
 */
import { lstatSync } from "node:fs";
import { readHeader } from "@pi-sessions/core/internal";
import { usageError } from "../io/errors.js";

/**
 * Refuses an `-o` target that must not be replaced: the session `source` itself, another pi
 * session file, anything but a regular file (a device, a FIFO, a directory, a symbolic link),
 * and — unless `replaceFiles` — any existing file. Throws a usage error (exit 2) naming why.
 */
export function checkOutputTarget(output: string, source: string, replaceFiles: boolean): void {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(output);
  } catch {
    return; // nothing there: a new file
  }
  if (output === source) throw usageError(`refusing to overwrite the session itself: ${output}`);
  if (!stats.isFile()) throw usageError(`refusing to write ${output}: it is not a regular file`);
  if (readHeader(output) !== null) {
    throw usageError(`refusing to overwrite ${output}: it is a pi session file (give a new path)`);
  }
  if (!replaceFiles)
    throw usageError(
      `refusing to overwrite the existing file ${output} (add --force to replace it)`,
    );
}
