/**
 * Reads a byte range of a session file in chunks of whole lines, so that every line's byte
 * offset is known: the index stores where each record is and resumes at the end of the last
 * complete line. Lines are not parsed here; each chunk goes to core's line parser as one
 * string, and the visitor maps the parser's line numbers back to byte offsets.
 */

import { readSync } from "node:fs";

const CHUNK_BYTES = 1024 * 1024;

/** The complete lines of one chunk: their text and where each starts in the file. */
export interface LineChunk {
  /** The lines, each with its `\n`, decoded as UTF-8. */
  readonly text: string;
  /** File offset of each line's first byte, in order. */
  readonly starts: readonly number[];
  /** File offset just after the chunk's last `\n`. */
  readonly end: number;
}

/** What is left after the last `\n`: a torn (or unterminated) last line, maybe empty. */
export interface Remainder {
  readonly start: number;
  readonly bytes: Buffer;
}

/**
 * The loop both readers below share: reads `[from, to)` into a buffer (grown for a line longer
 * than it) and hands over each run of complete lines, `buffer[0..last]` (`last` is its final
 * `\n`), which starts at file offset `base`, until `onLines` returns false. Returns whether it
 * was stopped, and where the unread remainder starts with its bytes.
 */
function eachWholeLines(
  fd: number,
  from: number,
  to: number,
  onLines: (buffer: Buffer, last: number, base: number) => boolean,
): { readonly stopped: boolean; readonly base: number; readonly rest: Buffer } {
  let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK_BYTES, to - from)));
  let filled = 0; // bytes of `buffer` holding file data from `base`
  let base = from; // always the start of a line
  while (base + filled < to) {
    if (filled === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const want = Math.min(buffer.length - filled, to - base - filled);
    const n = readSync(fd, buffer, filled, want, base + filled);
    if (n === 0) break; // the file shrank under us: what was read is all there is
    filled += n;
    const last = buffer.lastIndexOf(10, filled - 1);
    if (last < 0) continue;
    if (!onLines(buffer, last, base)) return { stopped: true, base, rest: Buffer.alloc(0) };
    buffer.copy(buffer, 0, last + 1, filled);
    filled -= last + 1;
    base += last + 1;
  }
  return { stopped: false, base, rest: Buffer.from(buffer.subarray(0, filled)) };
}

/**
 * Hands the complete lines of `[from, to)` to `onChunk` in order (stopping when it returns
 * false) and returns the bytes after the last newline. A line longer than a chunk grows the
 * buffer; decoding whole lines keeps a multi-byte character from being split.
 */
export function readLineChunks(
  fd: number,
  from: number,
  to: number,
  onChunk: (chunk: LineChunk) => boolean,
): Remainder {
  let stoppedAt = from;
  const read = eachWholeLines(fd, from, to, (buffer, last, base) => {
    const starts: number[] = [];
    for (let at = 0; at <= last; at = buffer.indexOf(10, at) + 1) starts.push(base + at);
    stoppedAt = base + last + 1;
    return onChunk({ text: buffer.toString("utf8", 0, last + 1), starts, end: stoppedAt });
  });
  return read.stopped
    ? { start: stoppedAt, bytes: read.rest }
    : { start: read.base, bytes: read.rest };
}

/** Reads `length` bytes at `position` (fewer if the file is shorter). */
export function readBytes(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buffer, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got);
}

/** Where {@link readWholeLines} stopped: the end of the last complete line and its start. */
export interface WholeLines {
  /** File offset just after the last `\n` read (`from` when none). */
  readonly end: number;
  /** Where the last complete line starts (`end` when there is none). */
  readonly lastStart: number;
}

/**
 * Hands the text of the complete lines of `[from, to)` to `onText` in chunks (stopping when it
 * returns false), without noting where each line starts: a listing that stores no records
 * needs only where the last one does.
 */
export function readWholeLines(
  fd: number,
  from: number,
  to: number,
  onText: (text: string) => boolean,
): WholeLines {
  let end = from;
  let lastStart = from;
  eachWholeLines(fd, from, to, (buffer, last, base) => {
    lastStart = base + (last === 0 ? 0 : buffer.lastIndexOf(10, last - 1) + 1);
    end = base + last + 1;
    return onText(buffer.toString("utf8", 0, last + 1));
  });
  return { end, lastStart };
}
