import { closeSync, readSync, type Stats, statSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { openRegularFile } from "./regular-file.js";

/**
 * A bound on what one line may cost a reader: a line longer than `maxBytes` is never decoded
 * or parsed. Its first `maxBytes` bytes at most have been handed on as text when it is found
 * out; `onLongLine` is then told its whole length (the reader must drop that start, as
 * `JsonlScanner.skipLine` does) and returns false to stop the read.
 */
export interface LongLineBound {
  /** The most bytes a line may have to be read. */
  readonly maxBytes: number;
  /** Told each longer line's size (and whether a `\n` ended it); false stops the read. */
  onLongLine(bytes: number, endsWithNewline: boolean): boolean;
}

const NEWLINE = 0x0a;

/**
 * Reads an open file from the start as UTF-8 text in `buffer`-sized chunks, handing each to
 * `onText` until end of file, `limit` bytes, or `onText` returns false (then `stopped`). With a
 * {@link LongLineBound}, no chunk is larger than its `maxBytes`, so a line within one chunk is
 * within the bound and only the bytes carried over from chunk to chunk need counting: two
 * `indexOf`s per chunk. A long line's bytes are skipped unread, whatever its length.
 */
export function readText(
  fd: number,
  buffer: Buffer,
  onText: (text: string) => boolean,
  limit = Number.POSITIVE_INFINITY,
  long?: LongLineBound,
): { bytes: number; stopped: boolean } {
  let decoder = new StringDecoder("utf8");
  const size = long === undefined ? buffer.length : clampChunk(buffer.length, long.maxBytes);
  let position = 0;
  /** Bytes of the line in progress (since the last `\n`), when a bound is kept. */
  let lineBytes = 0;
  /** Whether the line in progress is over the bound (its bytes are being skipped). */
  let skipping = false;
  while (position < limit) {
    const n = readSync(fd, buffer, 0, Math.min(size, limit - position), position);
    if (n === 0) break;
    position += n;
    let chunk = buffer.subarray(0, n);
    if (long !== undefined) {
      const first = chunk.indexOf(NEWLINE);
      if (skipping || lineBytes + (first === -1 ? n : first) > long.maxBytes) {
        if (first === -1) {
          lineBytes += n;
          skipping = true;
          continue;
        }
        skipping = false;
        // A character cut at the chunk's end belonged to the skipped line: start afresh.
        decoder = new StringDecoder("utf8");
        if (!long.onLongLine(lineBytes + first, true)) return { bytes: position, stopped: true };
        chunk = chunk.subarray(first + 1);
        lineBytes = 0;
      }
      const last = chunk.lastIndexOf(NEWLINE);
      lineBytes = last === -1 ? lineBytes + chunk.length : chunk.length - last - 1;
    }
    if (!onText(decoder.write(chunk))) return { bytes: position, stopped: true };
  }
  if (skipping) {
    decoder = new StringDecoder("utf8");
    if (!long?.onLongLine(lineBytes, false)) return { bytes: position, stopped: true };
  }
  return { bytes: position, stopped: !onText(decoder.end()) };
}

/** The read size under a line bound: at most the bound, at least one byte. */
function clampChunk(bufferBytes: number, maxBytes: number): number {
  return Math.max(1, Math.min(bufferBytes, Math.floor(maxBytes)));
}

/**
 * Runs `use` on `path` opened for reading, and closes it afterwards. Only a regular file is
 * opened (see `openRegularFile`): anything else throws `NotRegularFileError` unopened.
 */
export function withFile<T>(path: string, use: (fd: number, stats: Stats) => T): T {
  const { fd, stats } = openRegularFile(path);
  try {
    return use(fd, stats);
  } finally {
    closeSync(fd);
  }
}

/** {@link withFile}, `null` on any error: the listing and header readers drop such files (§1.6). */
export function readOrNull<T>(path: string, use: (fd: number, stats: Stats) => T): T | null {
  try {
    return withFile(path, use);
  } catch {
    return null;
  }
}

/** `path`'s stat, `null` if it vanished or cannot be stat'ed (callers skip such files). */
export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}
