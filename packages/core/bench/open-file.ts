/**
 * Opening a big session FILE (100 MB by default): ours `SessionManager.open` (streams the
 * file in 4 MiB chunks, never one whole-file string) against a raw `readFileSync` + split +
 * `JSON.parse` baseline and the reference's `SessionManager.open`, in one process, rounds
 * interleaved. Also the memory each keeps after open (heap + external after a forced GC,
 * minus the heap before), as a multiple of the file size.
 *
 * Run: node --expose-gc --conditions=@pi-sessions/source --import tsx bench/open-file.ts [--mb N]
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { numberFlag } from "./flags.js";
import { generateSession } from "./generate.js";
import { loadReference } from "./reference.js";

const targetMb = numberFlag("mb", 100);
const gc = (globalThis as { gc?: () => void }).gc;

const dir = mkdtempSync(join(tmpdir(), "pi-open-bench-"));
const file = join(dir, "big.jsonl");
// ~640 bytes per entry in the generator: size the session to reach the target.
const entries = Math.round((targetMb * 1024 * 1024) / 640);
writeFileSync(file, generateSession("linear", entries).text);
const bytes = statSync(file).size;
const ref = await loadReference();
const refOpen = (path: string): unknown => ref.SessionManager.open(path);

function retainedBytes(open: () => unknown): number {
  if (!gc) return Number.NaN;
  // Twice: the first full GC can leave objects that only die once finalizers ran.
  gc();
  gc();
  const before = process.memoryUsage();
  let kept: unknown = open();
  gc();
  gc();
  const after = process.memoryUsage();
  const delta = after.heapUsed + after.external - (before.heapUsed + before.external);
  kept = undefined;
  return delta + (kept === undefined ? 0 : 0);
}

const contenders: [string, () => unknown][] = [
  [
    "baseline: readFileSync + split + JSON.parse",
    () =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
  ],
  ["ours: SessionManager.open", () => SessionManager.open(file)],
  ["reference: SessionManager.open", () => refOpen(file)],
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

// Memory first, on a clean heap: after the timing rounds the heap is fragmented by
// gigabytes of garbage, which skews a difference of two readings.
// Retained memory: three interleaved measurements each, median (one reading can be off by a
// GC's timing; the two contenders are within a few percent of each other).
const oursKeptAll: number[] = [];
const refKeptAll: number[] = [];
for (let r = 0; r < 3; r++) {
  oursKeptAll.push(retainedBytes(() => SessionManager.open(file)));
  refKeptAll.push(retainedBytes(() => refOpen(file)));
}
const perFile = (xs: number[]) => xs.map((x) => (x / bytes).toFixed(3)).join(", ");
const memoryLine = gc
  ? `memory kept after open (× file size, median of 3): ours ${(median(oursKeptAll) / bytes).toFixed(3)}× [${perFile(oursKeptAll)}], reference ${(median(refKeptAll) / bytes).toFixed(3)}× [${perFile(refKeptAll)}]`
  : "memory kept after open: run with --expose-gc to measure";

const times = new Map<string, number[]>(contenders.map(([n]) => [n, []]));
const rounds = 5;
for (let r = 0; r < rounds; r++) {
  for (const [name, fn] of contenders) {
    gc?.();
    const t0 = process.hrtime.bigint();
    const kept = fn();
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    (times.get(name) as number[]).push(ms);
    if (kept instanceof SessionManager) kept.close();
  }
}
const base = median(times.get(contenders[0]?.[0] as string) as number[]);
const refMs = median(times.get(contenders[2]?.[0] as string) as number[]);
console.log(
  `\n== open a ${(bytes / 1e6).toFixed(1)} MB session file (${entries} entries), median of ${rounds} interleaved rounds`,
);
for (const [name] of contenders) {
  const ms = median(times.get(name) as number[]);
  console.log(
    `${name.padEnd(46)} ${ms.toFixed(0).padStart(6)} ms   ÷base ${(ms / base).toFixed(2)}×   ÷ref ${(ms / refMs).toFixed(2)}×`,
  );
}
console.log(memoryLine);
rmSync(dir, { recursive: true, force: true });
