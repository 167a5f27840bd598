import { closeSync, openSync, readSync } from "node:fs";

/**
 * Reads an open file from the start in `buffer`-sized chunks, handing each to `onChunk`,
 * until end of file, `limit` bytes, or `onChunk` returns false. Returns the bytes read and
 * whether it stopped early. The chunk is a view of `buffer`: consume it before returning.
 */
export function readChunks(
  fd: number,
  buffer: Buffer,
  onChunk: (bytes: Buffer) => boolean,
  limit = Number.POSITIVE_INFINITY,
): { bytes: number; stopped: boolean } {
  let position = 0;
  while (position < limit) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, limit - position), position);
    if (n === 0) break;
    position += n;
    if (!onChunk(buffer.subarray(0, n))) return { bytes: position, stopped: true };
  }
  return { bytes: position, stopped: false };
}

/**
 * Runs `use` on `path` opened for reading and closes it afterwards. `null` when the file
 * cannot be opened or `use` throws: the listing and header readers drop such files (§1.6).
 */
export function readOrNull<T>(path: string, use: (fd: number) => T): T | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    return use(fd);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
