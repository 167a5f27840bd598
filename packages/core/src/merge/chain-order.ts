/**
 * The order of a merged file: both copies' lines interleaved so that each copy's own order is
 * kept, every parent comes before its child, and where the copies went separate ways the
 * earlier line (by entry time) comes first. It is the merge step of a merge sort over two
 * chains: at each step the heads that may go (not waiting for a line the other copy puts
 * first, parent already out) compete, and the earlier wins, ties broken by content.
 *
 * Why time order and not "all of one copy, then the other's new lines": pi resolves a label and
 * the session name by the last line in the file, and continues from the last line. Putting one
 * copy's news last would make the other machine's rename or label lose merely because of which
 * copy was named first; time order lets the later one win, whichever side it came from, and
 * the merged file ends on the most recent activity of either machine. A copy that only grew,
 * and every copy whose news are all later than the other's, keeps its order and bytes.
 */

import type { JsonRecord } from "../format/parse.js";

/** A line of one copy, ready to be ordered. */
export interface ChainLine {
  /** The same line in both copies has the same key (an interned `keyText`). */
  readonly key: number;
  /** An entry's canonical JSON, or its bytes when both copies have them; an opaque line's bytes. */
  readonly keyText: string;
  /** What orders lines of equal time: content that no rename changes (then `key`); lazy. */
  readonly rank: () => string;
  /** Entry time in ms (a damaged line takes the time of the line before it). */
  readonly ms: number;
  /** 0 for entries, 1 for opaque lines: an opaque line stays after the entry it followed. */
  readonly tier: 0 | 1;
  /** The entry's record, for its id and parent. */
  readonly record?: JsonRecord;
}

/** Which copy a merged line came from. */
export type LineOrigin = "a" | "b" | "both";

/** Compares two lines by time, then kind, then content: a total order on distinct lines. */
function compareLines(x: ChainLine, y: ChainLine): number {
  if (x.ms !== y.ms) return x.ms < y.ms ? -1 : 1;
  if (x.tier !== y.tier) return x.tier - y.tier;
  const [rx, ry] = [x.rank(), y.rank()];
  if (rx !== ry) return rx < ry ? -1 : 1;
  return x.keyText < y.keyText ? -1 : x.keyText > y.keyText ? 1 : 0;
}

/** Position of each key in a chain (its first occurrence). */
function positions(chain: readonly ChainLine[]): Map<number, number> {
  const at = new Map<number, number>();
  for (let i = chain.length - 1; i >= 0; i--) at.set((chain[i] as ChainLine).key, i);
  return at;
}

/**
 * Interleaves chains `a` and `b` (lines in both appear once). Returns each merged line with the
 * copy it came from (a line in both is taken from `a`, with its bytes).
 */
export function interleaveChains(
  a: readonly ChainLine[],
  b: readonly ChainLine[],
): { line: ChainLine; origin: LineOrigin }[] {
  const inA = positions(a);
  const inB = positions(b);
  // Every entry of the union by id: a child waits until each entry with its parent's id is out.
  const byId = new Map<string, number[]>();
  for (const line of [...a, ...b]) {
    const id = line.record?.id;
    if (typeof id !== "string") continue;
    const keys = byId.get(id) ?? [];
    if (!keys.includes(line.key)) keys.push(line.key);
    byId.set(id, keys);
  }
  const out: { line: ChainLine; origin: LineOrigin }[] = [];
  const emitted = new Set<number>();
  let ia = 0;
  let ib = 0;
  const parentOut = (line: ChainLine): boolean => {
    const parent = line.record?.parentId;
    if (typeof parent !== "string" || parent === line.record?.id) return true;
    return (byId.get(parent) ?? []).every((key) => emitted.has(key) || key === line.key);
  };
  // A head of one chain may go once the other chain has nothing it puts before that line.
  const mayGo = (line: ChainLine, other: Map<number, number>, otherAt: number): boolean => {
    const at = other.get(line.key);
    return (at === undefined || at <= otherAt) && parentOut(line);
  };
  for (;;) {
    while (ia < a.length && emitted.has((a[ia] as ChainLine).key)) ia++;
    while (ib < b.length && emitted.has((b[ib] as ChainLine).key)) ib++;
    const ha = a[ia];
    const hb = b[ib];
    if (!ha && !hb) break;
    const goA = ha !== undefined && mayGo(ha, inB, ib);
    const goB = hb !== undefined && mayGo(hb, inA, ia);
    let pick: ChainLine;
    if (goA && goB) pick = compareLines(ha, hb) <= 0 ? ha : hb;
    else if (goA) pick = ha;
    else if (goB) pick = hb;
    // Neither may go: the copies order some common lines differently, or a file puts a child
    // before its parent. Take the earlier head anyway; every step emits a line, so this ends.
    else if (ha && hb) pick = compareLines(ha, hb) <= 0 ? ha : hb;
    else pick = (ha ?? hb) as ChainLine;
    emitted.add(pick.key);
    const origin: LineOrigin = inA.has(pick.key) ? (inB.has(pick.key) ? "both" : "a") : "b";
    out.push({
      line: origin === "b" ? pick : (a[inA.get(pick.key) as number] as ChainLine),
      origin,
    });
  }
  return out;
}
