/**
 * Merge benchmark: `mergeSessions` on two copies of one generated session that diverged for
 * the last tenth of its entries (each copy appended its own), and on a copy and its own grown
 * copy, against a floor measured in the same process: split both copies into lines and
 * `JSON.parse` every line (what any merge must at least read). Wall time per call (median of
 * the samples) and the ratio to the floor; the merged result is checked to hold every entry.
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/core/bench/merge-bench.ts
 */

import { mergeSessions } from "../src/merge/merge-sessions.js";
import { generateSession } from "./generate.js";
import { formatNs, formatRatio, measure } from "./harness.js";

/** Two copies of a `size`-entry session: a common 90 %, then each its own last 10 %. */
function diverged(size: number) {
  const lines = generateSession("bushy", size, 3).text.trimEnd().split("\n");
  const cut = 1 + Math.floor(size * 0.9);
  const prefix = lines.slice(0, cut);
  const own = lines.slice(cut);
  // The other machine's entries: the same shape, other ids (first hex digit changed) and times.
  const theirs = own.map((line) =>
    line
      .replace(/"(id|parentId)":"([0-9a-f])([0-9a-f]{7})"/g, (m, key, first, rest) => {
        const parentInPrefix =
          key === "parentId" && prefix.some((p) => p.includes(`"id":"${first}${rest}"`));
        return parentInPrefix
          ? m
          : `"${key}":"${((Number.parseInt(first, 16) + 8) % 16).toString(16)}${rest}"`;
      })
      .replace(/:00\.(\d{3})Z/, ":01.$1Z"),
  );
  const text = (ls: string[]) => `${ls.join("\n")}\n`;
  return { a: text([...prefix, ...own]), b: text([...prefix, ...theirs]), before: text(prefix) };
}

/** The floor: read both copies as a merge must, line by line through JSON.parse. */
function parseBoth(a: string, b: string): number {
  let n = 0;
  for (const text of [a, b])
    for (const line of text.split("\n")) if (line) n += JSON.parse(line) ? 1 : 0;
  return n;
}

console.log(
  "merge of two copies (90 % common), wall time per call, median; floor = split + JSON.parse both",
);
console.log("entries   case        merge ms   floor ms   ratio   samples");
for (const size of [1_000, 10_000, 30_000]) {
  const { a, b, before } = diverged(size);
  const check = mergeSessions(a, b).report.entries;
  const expected = size + (size - Math.floor(size * 0.9));
  if (check.total !== expected)
    throw new Error(`merge lost entries: ${check.total} of ${expected}`);
  const budget = { minMs: 1500, minSamples: 5, maxSamples: 50, warmupSamples: 2 };
  const floor = measure(() => parseBoth(a, b), budget);
  for (const [name, x, y] of [
    ["diverged", a, b],
    ["grown", before, a],
  ] as const) {
    const m = measure(() => mergeSessions(x, y), budget);
    const cells = [
      String(size).padStart(7),
      name.padEnd(10),
      formatNs(m.medianNs).padStart(10),
      formatNs(floor.medianNs).padStart(10),
      formatRatio(m.medianNs / floor.medianNs).padStart(7),
      String(m.samples).padStart(9),
    ];
    console.log(cells.join("   "));
  }
}
