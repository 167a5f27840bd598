/**
 * A file as byte lines. Repairs rewrite only the lines they change and copy every other line
 * byte for byte — including lines that are not valid UTF-8, which a decode/encode round trip
 * would alter — so nothing unparseable is ever lost or even re-spelled.
 */

import { readSync } from "node:fs";
import { splitByteLines, withFile } from "@pi-sessions/core/internal";

/** The bytes of each `\n`-separated line (without the `\n`); the last may be a fragment. */
export function splitLines(bytes: Buffer): Buffer[] {
  return splitByteLines(bytes); // one splitter for the repair and core's merge
}

/**
 * Joins lines back into a file that ends with `\n`. The empty segment after a final `\n` is
 * dropped (it is not a line); a last fragment without `\n` gets one, which is the only change
 * a torn tail needs — the fragment itself stays as it was.
 */
export function joinLines(lines: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [];
  const newline = Buffer.from("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Buffer;
    if (i === lines.length - 1 && line.length === 0) break;
    parts.push(line, newline);
  }
  return Buffer.concat(parts);
}

/**
 * The first `maxBytes` bytes of each wanted line (1-based), read in one pass over the file in
 * chunks: a huge file or line costs one chunk and the starts kept, never the whole file. Only
 * a regular file is opened.
 */
export function lineStarts(
  path: string,
  wanted: ReadonlySet<number>,
  maxBytes: number,
): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  const last = Math.max(0, ...wanted);
  withFile(path, (fd) => {
    const buffer = Buffer.allocUnsafe(1024 * 1024);
    let line = 1;
    let kept: Buffer[] | undefined = wanted.has(1) ? [] : undefined;
    let keptBytes = 0;
    let position = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n === 0) break;
      position += n;
      const chunk = buffer.subarray(0, n);
      let start = 0;
      while (start <= n) {
        const nl = chunk.indexOf(0x0a, start);
        const end = nl === -1 ? n : nl;
        if (kept !== undefined && keptBytes < maxBytes) {
          const take = Math.min(end - start, maxBytes - keptBytes);
          kept.push(Buffer.from(chunk.subarray(start, start + take)));
          keptBytes += take;
        }
        if (nl === -1) break;
        if (kept !== undefined) out.set(line, Buffer.concat(kept));
        line++;
        if (line > last) return;
        kept = wanted.has(line) ? [] : undefined;
        keptBytes = 0;
        start = nl + 1;
      }
    }
    if (kept !== undefined) out.set(line, Buffer.concat(kept));
  });
  return out;
}
