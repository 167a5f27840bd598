/**
 * What checking every record with the schema codecs would add to a load: `JSON.parse` of N
 * generated entry lines alone, against `JSON.parse` plus `decodeRecord` of each. The load path
 * does not decode (it only parses); this figure is why, and what an opt-in check costs.
 * Wired into no script: run it by hand and quote the figure.
 *
 * Run: node --conditions=@pi-sessions/source --import tsx bench/decode-cost.ts [--entries=N]
 */
import { decodeRecord } from "@pi-sessions/core";
import { isLeft } from "fp-ts/lib/Either.js";
import { numberFlag } from "./flags.js";
import { generateSession } from "./generate.js";

const count = numberFlag("entries", 100_000);
const lines = generateSession("linear", count)
  .text.split("\n")
  .filter((l) => l !== "");
const ROUNDS = 5;

/** Median milliseconds of `ROUNDS` runs of `work`, after one warm-up run. */
function median(work: () => void): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number;
}

let invalid = 0;
const parseOnly = median(() => {
  for (const line of lines) JSON.parse(line);
});
const parseAndDecode = median(() => {
  invalid = 0;
  for (const line of lines) if (isLeft(decodeRecord(JSON.parse(line)))) invalid++;
});
const bytes = lines.reduce((n, l) => n + l.length + 1, 0);
console.log(
  `${lines.length} records (${(bytes / 1048576).toFixed(1)} MB): JSON.parse ${parseOnly.toFixed(0)} ms, ` +
    `JSON.parse + decodeRecord ${parseAndDecode.toFixed(0)} ms ` +
    `(decode ×${(parseAndDecode / parseOnly).toFixed(2)} of parse alone; ${invalid} invalid)`,
);
