/**
 * Skipping JSON tokens over bytes without building them, for the line check of json-scan.ts:
 * a string (four bytes at a time on aligned words), a number by JSON's grammar, a literal. Each
 * answers the index past the token, or -1 where `JSON.parse` would refuse it.
 */

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Byte classes inside a string: 0 plain, 1 quote, 2 backslash, 3 control (invalid raw). */
const STRING_CLASS = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_CLASS[c] = 3;
STRING_CLASS[QUOTE] = 1;
STRING_CLASS[BACKSLASH] = 2;

/** Bytes allowed after a backslash, but `u`. */
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

export const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** 32-bit views of the buffers' memory, for the word-at-a-time skip of string content. */
const wordViews = new WeakMap<ArrayBufferLike, Uint32Array<ArrayBufferLike>>();
/** The last memory asked about and its view: a load asks about one chunk many times in a row. */
let lastMemory: ArrayBufferLike | undefined;
let lastWords: Uint32Array<ArrayBufferLike> = new Uint32Array(0);

export function wordsOf(b: Uint8Array): Uint32Array<ArrayBufferLike> {
  if (b.buffer === lastMemory) return lastWords;
  let words = wordViews.get(b.buffer);
  if (words === undefined) {
    words = new Uint32Array(b.buffer, 0, b.buffer.byteLength >>> 2);
    wordViews.set(b.buffer, words);
  }
  lastMemory = b.buffer;
  lastWords = words;
  return words;
}

/**
 * The index just past the closing quote of the string whose content starts at `i`, or -1 when
 * it is not a valid JSON string. `escaped.value` is set when it holds an escape. Most of a
 * session's bytes are string content: on aligned words it skips four bytes at a time while none
 * of them is a quote, a backslash or a control character (exact tests on the word's bytes,
 * Bit Twiddling Hacks' "has a byte less than n" and "has a zero byte"), and reads the bytes of
 * a word that has one.
 */
export function skipString(
  b: Uint8Array,
  words: Uint32Array<ArrayBufferLike>,
  base: number,
  i: number,
  end: number,
  escaped: { value: boolean },
): number {
  while (i < end) {
    if (((base + i) & 3) === 0) {
      while (i + 4 <= end) {
        const x = words[(base + i) >>> 2] as number;
        const quote = x ^ 0x22222222;
        const slash = x ^ 0x5c5c5c5c;
        const special =
          ((x - 0x20202020) & ~x) |
          ((quote - 0x01010101) & ~quote) |
          ((slash - 0x01010101) & ~slash);
        if ((special & 0x80808080) !== 0) break;
        i += 4;
      }
      if (i >= end) break;
    }
    const k = STRING_CLASS[b[i++] as number];
    if (k === 0) continue;
    if (k === 1) return i;
    if (k === 3) return -1;
    // A backslash: one of the simple escapes, or \u and four hex digits.
    escaped.value = true;
    if (i >= end) return -1;
    const e = b[i++] as number;
    if (e === 0x75) {
      if (i + 4 > end) return -1;
      if (
        !(
          HEX[b[i] as number] &&
          HEX[b[i + 1] as number] &&
          HEX[b[i + 2] as number] &&
          HEX[b[i + 3] as number]
        )
      )
        return -1;
      i += 4;
    } else if (!SIMPLE_ESCAPE[e]) return -1;
  }
  return -1;
}

/** The index past a JSON number starting at `i`, or -1 (JSON's grammar: no `+`, no `.5`). */
export function skipNumber(b: Uint8Array, i: number, end: number): number {
  if (b[i] === 0x2d) i++;
  if (i >= end) return -1;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i] as number)) while (i < end && isDigit(b[i] as number)) i++;
  else return -1;
  if (i < end && b[i] === 0x2e) {
    i++;
    if (i >= end || !isDigit(b[i] as number)) return -1;
    while (i < end && isDigit(b[i] as number)) i++;
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    if (i >= end || !isDigit(b[i] as number)) return -1;
    while (i < end && isDigit(b[i] as number)) i++;
  }
  return i;
}

/** The index past the literal `word` (true, false, null) at `i`, or -1. */
export function skipLiteral(b: Uint8Array, i: number, end: number, word: Uint8Array): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
  return i + word.length;
}

export const TRUE = new TextEncoder().encode("true");
export const FALSE = new TextEncoder().encode("false");
export const NULL = new TextEncoder().encode("null");
