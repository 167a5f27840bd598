/**
 * Each appended line is encoded into one reused buffer: handing `write(2)` a string makes Node
 * flatten `json + "\n"` and encode it on every append (about 0.7 KB of garbage and a few
 * hundred ns). Appends are synchronous, so one buffer serves every writer; lines above
 * {@link SCRATCH_MAX} get their own so one huge line does not pin memory.
 */
const SCRATCH_BYTES = 64 * 1024;
const SCRATCH_MAX = 1024 * 1024;
let scratch: Buffer | undefined;

/**
 * `json` and `\n` as UTF-8 (after a `\n` when `lead`), in the first `size` bytes of the buffer
 * returned; hand it back with {@link recycleLine} once written.
 */
export function encodeLine(json: string, lead: boolean): [bytes: Buffer, size: number] {
  const size = Buffer.byteLength(json, "utf8") + (lead ? 2 : 1);
  // Taken out of the pool while in use: a nested append (a test's fs hook) gets its own.
  const bytes =
    size <= SCRATCH_MAX && scratch !== undefined && scratch.length >= size
      ? scratch
      : Buffer.allocUnsafe(size <= SCRATCH_MAX ? Math.max(SCRATCH_BYTES, size) : size);
  if (bytes === scratch) scratch = undefined;
  let at = 0;
  if (lead) bytes[at++] = 0x0a;
  at += bytes.write(json, at, "utf8");
  bytes[at] = 0x0a;
  return [bytes, size];
}

/** Returns a buffer from {@link encodeLine} to the pool (unless it is a huge line's own). */
export function recycleLine(bytes: Buffer, size: number): void {
  if (size <= SCRATCH_MAX) scratch = bytes;
}

/** Total UTF-8 size of `lines` and whether they end in an unfinished line. */
export function tailOf(lines: readonly string[]): [size: number, needsNewline: boolean] {
  let size = 0;
  for (const line of lines) size += Buffer.byteLength(line, "utf8");
  const last = lines.findLast((line) => line.length > 0);
  return [size, last !== undefined && !last.endsWith("\n")];
}
