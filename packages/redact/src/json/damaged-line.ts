/**
 * A line that is not JSON (torn by a crash, damaged by hand) has no strings to decode, but it
 * may still spell a secret with escapes (`\u0067hp_…`, a password holding `\"`), and JSON
 * carried as text escapes everything once more. So such a line is read as it is and also with
 * its escapes undone, layer after layer while any are left. Leniently: a backslash that starts
 * no escape (`\x`, a `\u00` cut off by the tear) stays as it is.
 */
import type { PositionMap } from "./position-map.js";

/** One reading of a damaged line and the way back to the line's raw positions. */
export interface UnescapedLayer {
  readonly text: string;
  readonly toRaw: PositionMap;
}

const SIMPLE: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** `text` with its JSON escapes undone, and for each decoded position its index in `text`. */
function unescapeOnce(text: string): { text: string; at: Int32Array } | undefined {
  let slash = text.indexOf("\\");
  if (slash === -1) return undefined;
  const parts: string[] = [];
  const at = new Int32Array(text.length + 1);
  let d = 0;
  let r = 0;
  const copy = (end: number) => {
    parts.push(text.slice(r, end));
    for (; r < end; r++) at[d++] = r;
  };
  while (slash !== -1) {
    copy(slash);
    const next = text[slash + 1] ?? "";
    const hex = next === "u" ? text.slice(slash + 2, slash + 6) : "";
    const simple = SIMPLE[next];
    if (simple !== undefined || HEX4.test(hex)) {
      parts.push(simple ?? String.fromCharCode(Number.parseInt(hex, 16)));
      at[d++] = slash;
      r = slash + (simple !== undefined ? 2 : 6);
    } else copy(slash + 1); // not an escape: the backslash as it is
    slash = text.indexOf("\\", r);
  }
  copy(text.length);
  at[d] = text.length;
  const out = parts.join("");
  return out === text ? undefined : { text: out, at: at.subarray(0, d + 1) };
}

/**
 * The readings of a damaged line after its own: escapes undone once, then again, up to
 * `maxLayers` times or until nothing changes.
 */
export function unescapedLayers(line: string, maxLayers: number): UnescapedLayer[] {
  const layers: UnescapedLayer[] = [];
  let text = line;
  let toRaw: PositionMap = (pos) => pos;
  for (let k = 0; k < maxLayers; k++) {
    const next = unescapeOnce(text);
    if (next === undefined) break;
    const outer = toRaw;
    const at = next.at;
    toRaw = (pos) => outer(at[pos] as number);
    text = next.text;
    layers.push({ text, toRaw });
  }
  return layers;
}
