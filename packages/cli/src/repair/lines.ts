/**
 * A file as byte lines. Repairs rewrite only the lines they change and copy every other line
 * byte for byte — including lines that are not valid UTF-8, which a decode/encode round trip
 * would alter — so nothing unparseable is ever lost or even re-spelled.
 */

import { splitByteLines } from "@pi-sessions/core/internal";

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
