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

/**
 * `text` with its JSON escapes undone; when `at` is given, it receives for each decoded
 * position its index in `text` (and `text.length` after the last).
 */
function undoEscapes(text: string, at?: Int32Array): string {
  const parts: string[] = [];
  let d = 0;
  let r = 0;
  const copy = (end: number) => {
    parts.push(text.slice(r, end));
    if (at !== undefined) for (; r < end; r++) at[d++] = r;
    else {
      d += end - r;
      r = end;
    }
  };
  for (let slash = text.indexOf("\\"); slash !== -1; slash = text.indexOf("\\", r)) {
    copy(slash);
    const next = text[slash + 1] ?? "";
    const hex = next === "u" ? text.slice(slash + 2, slash + 6) : "";
    const simple = SIMPLE[next];
    if (simple !== undefined || HEX4.test(hex)) {
      parts.push(simple ?? String.fromCharCode(Number.parseInt(hex, 16)));
      if (at !== undefined) at[d] = slash;
      d++;
      r = slash + (simple !== undefined ? 2 : 6);
    } else copy(slash + 1); // not an escape: the backslash as it is
  }
  copy(text.length);
  if (at !== undefined) at[d] = text.length;
  return parts.join("");
}

/**
 * The readings of a damaged line after its own: escapes undone once, then again, up to
 * `maxLayers` times or until nothing changes.
 */
export function unescapedLayers(line: string, maxLayers: number): UnescapedLayer[] {
  const layers: UnescapedLayer[] = [];
  let text = line;
  let toRaw: PositionMap = (pos) => pos;
  for (let k = 0; k < maxLayers && text.includes("\\"); k++) {
    const next = undoEscapes(text);
    if (next === text) break;
    // The way back is built on first use: most damaged lines hold no secret.
    const source = text;
    const outer = toRaw;
    let at: Int32Array | undefined;
    toRaw = (pos) => {
      if (at === undefined) {
        at = new Int32Array(next.length + 1);
        undoEscapes(source, at);
      }
      return outer(at[pos] as number);
    };
    text = next;
    layers.push({ text, toRaw });
  }
  return layers;
}
