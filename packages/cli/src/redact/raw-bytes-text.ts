/**
 * A session file's bytes as text that gives the same bytes back. Redaction works on strings,
 * and decoding a file that is not all UTF-8 (a torn character in a damaged line, a foreign
 * encoding) would turn each bad byte into U+FFFD for good, against SPEC X1 (every byte but the
 * secrets stays). So each byte that is not part of a valid UTF-8 sequence becomes the lone
 * surrogate U+DC00 + byte ("surrogateescape"): valid UTF-8 never decodes to a surrogate, so
 * such a character can only stand for a kept byte, and writing the text turns it back.
 */

/** Decodes strictly and keeps a byte-order mark as U+FEFF, as `readFileSync(…, "utf8")` does. */
const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A lone low surrogate of the escape range: a code point, so never half of a pair (flag u). */
const ESCAPED_BYTE = /[\udc80-\udcff]/u;
const ESCAPED_BYTES = /[\udc80-\udcff]/gu;

/** The length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] as number;
  if (lead < 0x80) return 1;
  // The first continuation byte's range rules out overlong forms, surrogates and > U+10FFFF.
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead === 0xe0) [length, low] = [3, 0xa0];
  else if (lead === 0xed) [length, high] = [3, 0x9f];
  else if (lead >= 0xe1 && lead <= 0xef) length = 3;
  else if (lead === 0xf0) [length, low] = [4, 0x90];
  else if (lead === 0xf4) [length, high] = [4, 0x8f];
  else if (lead >= 0xf1 && lead <= 0xf3) length = 4;
  else return 0;
  if (i + length > bytes.length) return 0;
  const first = bytes[i + 1] as number;
  if (first < low || first > high) return 0;
  for (let k = 2; k < length; k++) {
    const next = bytes[i + k] as number;
    if (next < 0x80 || next > 0xbf) return 0;
  }
  return length;
}

/** `bytes` as text; each byte outside valid UTF-8 as its escape character. */
export function textKeepingBytes(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    // Rare (a damaged file): walk the bytes, decoding the valid runs between the bad ones.
  }
  const parts: string[] = [];
  let start = 0;
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (start < i) parts.push(strict.decode(bytes.subarray(start, i)));
    parts.push(String.fromCharCode(0xdc00 + (bytes[i] as number)));
    start = ++i;
  }
  if (start < bytes.length) parts.push(strict.decode(bytes.subarray(start)));
  return parts.join("");
}

/**
 * What to write for text from `textKeepingBytes`: the text itself when it kept no byte (the
 * usual case, written as UTF-8 as any string is), else its bytes with each escape turned back.
 */
export function bytesOfKeptText(text: string): string | Buffer {
  if (!ESCAPED_BYTE.test(text)) return text;
  const parts: Buffer[] = [];
  let from = 0;
  for (const match of text.matchAll(ESCAPED_BYTES)) {
    parts.push(Buffer.from(text.slice(from, match.index), "utf8"));
    parts.push(Buffer.of((match[0].codePointAt(0) as number) - 0xdc00));
    from = match.index + match[0].length;
  }
  parts.push(Buffer.from(text.slice(from), "utf8"));
  return Buffer.concat(parts);
}
