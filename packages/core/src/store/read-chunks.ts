import { closeSync, openSync, readSync, type Stats, statSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/**
 * Reads an open file from the start as UTF-8 text in `buffer`-sized chunks, handing each to
 * `onText` until end of file, `limit` bytes, or `onText` returns false (then `stopped`).
 */
export function readText(
  fd: number,
  buffer: Buffer,
  onText: (text: string) => boolean,
  limit = Number.POSITIVE_INFINITY,
): { bytes: number; stopped: boolean } {
  const decoder = new StringDecoder("utf8");
  let position = 0;
  while (position < limit) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, limit - position), position);
    if (n === 0) break;
    position += n;
    if (!onText(decoder.write(buffer.subarray(0, n)))) return { bytes: position, stopped: true };
  }
  return { bytes: position, stopped: !onText(decoder.end()) };
}

/** Runs `use` on `path` opened for reading, and closes it afterwards. */
export function withFile<T>(path: string, use: (fd: number) => T): T {
  const fd = openSync(path, "r");
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

/** {@link withFile}, `null` on any error: the listing and header readers drop such files (§1.6). */
export function readOrNull<T>(path: string, use: (fd: number) => T): T | null {
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
