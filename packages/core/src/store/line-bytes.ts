/**
 * UTF-8 encoding of one appended line into a reused buffer. Handing `write(2)` a string makes
 * Node flatten `json + "\n"` into a new string and encode it on every append; encoding the
 * JSON text straight into bytes that are kept from one append to the next spares both (about
 * 0.7 KB of garbage and a few hundred ns per append), and the bytes are also what an undo
 * needs to know the last byte written.
 */

/** Size of the shared scratch buffer when first needed. */
const SCRATCH_BYTES = 64 * 1024;
/** Lines above this get a buffer of their own, so one huge line does not pin memory. */
const SCRATCH_MAX = 1024 * 1024;

let scratch: Buffer | undefined;
/** Set between {@link encodeLine} and {@link releaseLine}; a nested call gets its own buffer. */
let scratchInUse = false;

/** UTF-8 size of the line {@link encodeLine} builds. */
export function lineByteLength(text: string, lead: boolean, trail: boolean): number {
  return Buffer.byteLength(text, "utf8") + (lead ? 1 : 0) + (trail ? 1 : 0);
}

/**
 * Encodes `"\n"` (when `lead`), `text`, then `"\n"` (when `trail`); `size` is their
 * {@link lineByteLength}. Returns a buffer whose first `size` bytes are the line, valid until
 * {@link releaseLine} (appends are synchronous, so one scratch buffer serves every writer).
 */
export function encodeLine(text: string, lead: boolean, trail: boolean, size: number): Buffer {
  let bytes: Buffer;
  if (scratchInUse || size > SCRATCH_MAX) {
    bytes = Buffer.allocUnsafe(size);
  } else {
    if (scratch === undefined || scratch.length < size) {
      scratch = Buffer.allocUnsafe(Math.max(SCRATCH_BYTES, size));
    }
    scratchInUse = true;
    bytes = scratch;
  }
  let at = 0;
  if (lead) bytes[at++] = 0x0a;
  at += bytes.write(text, at, "utf8");
  if (trail) bytes[at] = 0x0a;
  return bytes;
}

/** Gives back a buffer from {@link encodeLine} once its bytes are written. */
export function releaseLine(bytes: Buffer): void {
  if (bytes === scratch) scratchInUse = false;
}
