/**
 * Positions in a decoded string mapped back to the raw text it was decoded from. A secret is
 * found in decoded text; its replacement is written over the raw characters that spell it, so
 * an escape sequence inside the secret (`\"`, `\n`, `\u0041`) goes with it and every escape
 * outside it stays spelled as it was.
 */
import type { StringToken } from "./json-tokens.js";

/** Raw position of decoded position `pos`, for `0 ≤ pos ≤ length` (the end maps past the last). */
export type PositionMap = (pos: number) => number;

/** `toRaw` seen from `offset` characters into the decoded text. */
export function shifted(toRaw: PositionMap, offset: number): PositionMap {
  return offset === 0 ? toRaw : (pos) => toRaw(offset + pos);
}

/**
 * The map of a string literal's decoded value into the positions of the text holding the
 * literal (`outer` maps those on to the line). Without escapes it is an offset; with escapes
 * the table is built on first use, since most strings never need it.
 */
export function tokenPositions(
  text: string,
  token: StringToken,
  decodedLength: number,
  outer: PositionMap,
): PositionMap {
  const body = token.start + 1;
  if (!token.escaped) return (pos) => outer(body + pos);
  let table: Int32Array | undefined;
  return (pos) => {
    table ??= escapeTable(text, body, token.end - 1, decodedLength);
    return outer(table[pos] as number);
  };
}

/** For each decoded position of the literal body `[body, close)`, its index in `text`. */
function escapeTable(text: string, body: number, close: number, decodedLength: number): Int32Array {
  const table = new Int32Array(decodedLength + 1);
  let d = 0;
  let r = body;
  while (r < close && d < decodedLength) {
    table[d++] = r;
    // `\uXXXX` is six raw characters for one decoded unit, other escapes two, the rest one.
    if (text.charCodeAt(r) === 0x5c) r += text.charCodeAt(r + 1) === 0x75 ? 6 : 2;
    else r++;
  }
  table[d] = close;
  return table;
}
