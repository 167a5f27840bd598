/**
 * Per-append cost of `SessionFileWriter.appendRecord` against a raw `fs.writeSync(fd, line)` on a
 * kept-open O_APPEND fd, for 600-byte lines, at files of 1k and 1M lines; plus, for context, the
 * reference's pattern (`appendFileSync`: open, write, close per append) and the syscalls the
 * writer adds (fstat of the fd, stat of the path) timed on their own.
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/core/bench/store-append.ts
 *
 * Flags: `--appends=N` per round (default 20000), `--rounds=N` (default 7, median reported),
 * `--sizes=1000,1000000`, `--dir=path` (default: a temp dir; put it on the disk you care about).
 */

import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionFileWriter } from "../src/store/session-writer.js";
import { flagValue, numberFlag } from "./flags.js";

const LINE_BYTES = 600;

const appends = numberFlag("appends", 20000);
const rounds = numberFlag("rounds", 7);
const sizes = (flagValue("sizes") ?? "1000,1000000").split(",").map(Number);
const root = fs.mkdtempSync(join(flagValue("dir") ?? tmpdir(), "pi-store-bench-"));

/** A JSONL line of exactly {@link LINE_BYTES} bytes including its `\n`. */
function makeLine(i: number): string {
  const head = `{"type":"custom","id":"${i.toString(16).padStart(8, "0")}","data":"`;
  return `${head}${"x".repeat(LINE_BYTES - head.length - 3)}"}\n`;
}

/** Writes a file of `count` lines in 4 MiB batches; returns its size. */
function prefill(path: string, count: number): number {
  const fd = fs.openSync(path, "w", 0o600);
  const perBatch = Math.floor((4 << 20) / LINE_BYTES);
  for (let done = 0; done < count; ) {
    const n = Math.min(perBatch, count - done);
    const batch: string[] = [];
    for (let i = 0; i < n; i++) batch.push(makeLine(done + i));
    fs.writeSync(fd, batch.join(""));
    done += n;
  }
  fs.closeSync(fd);
  return fs.statSync(path).size;
}

/** Nanoseconds per call of `fn` over `count` calls. */
function perCall(count: number, fn: (i: number) => void): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / count;
}

/** Median of a list of numbers. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface Sample {
  raw: number;
  writer: number;
  reference: number;
  fstat: number;
  stat: number;
}

/** One round at a file of `lines` lines: raw and writer, alternating which goes first. */
function round(lines: number, r: number): Sample {
  const rawPath = join(root, `raw-${lines}.jsonl`);
  const ourPath = join(root, `ours-${lines}.jsonl`);
  const pool = Array.from({ length: 256 }, (_, i) => makeLine(i));
  // The writer is handed what the manager hands it: the JSON text, its newline added.
  const records = pool.map((line) => line.slice(0, -1));
  const runRaw = (): number => {
    const fd = fs.openSync(rawPath, fs.constants.O_WRONLY | fs.constants.O_APPEND);
    const ns = perCall(appends, (i) => fs.writeSync(fd, pool[i & 255] ?? ""));
    fs.closeSync(fd);
    return ns;
  };
  const runWriter = (): number => {
    const size = fs.statSync(ourPath).size;
    const writer = SessionFileWriter.attach(ourPath, { size, endsWithNewline: true });
    writer.appendRecord(records[0] ?? ""); // lock + open outside the timed loop
    const ns = perCall(appends, (i) => writer.appendRecord(records[i & 255] ?? ""));
    writer.close();
    return ns;
  };
  let raw: number;
  let writer: number;
  if (r % 2 === 0) {
    raw = runRaw();
    writer = runWriter();
  } else {
    writer = runWriter();
    raw = runRaw();
  }
  const refPath = join(root, `ref-${lines}.jsonl`);
  const reference = perCall(appends, (i) => fs.appendFileSync(refPath, pool[i & 255] ?? ""));
  const fd = fs.openSync(ourPath, fs.constants.O_RDONLY);
  const fstat = perCall(appends, () => fs.fstatSync(fd));
  fs.closeSync(fd);
  const stat = perCall(appends, () => fs.statSync(ourPath));
  return { raw, writer, reference, fstat, stat };
}

console.log(
  `store-append: ${appends} appends × ${rounds} rounds, ${LINE_BYTES}-byte lines, dir ${root}, node ${process.version}`,
);
console.log(
  "lines      raw ns/append  writer ns/append  ratio  appendFileSync ns  fstat ns  stat ns",
);
try {
  for (const lines of sizes) {
    prefill(join(root, `raw-${lines}.jsonl`), lines);
    prefill(join(root, `ours-${lines}.jsonl`), lines);
    round(lines, 0); // warm-up: JIT, page cache
    const samples = Array.from({ length: rounds }, (_, r) => round(lines, r));
    const raw = median(samples.map((s) => s.raw));
    const writer = median(samples.map((s) => s.writer));
    const reference = median(samples.map((s) => s.reference));
    const fstat = median(samples.map((s) => s.fstat));
    const stat = median(samples.map((s) => s.stat));
    console.log(
      `${String(lines).padEnd(10)} ${raw.toFixed(0).padStart(13)}  ${writer.toFixed(0).padStart(16)}  ${(writer / raw).toFixed(2).padStart(5)}  ${reference.toFixed(0).padStart(17)}  ${fstat.toFixed(0).padStart(8)}  ${stat.toFixed(0).padStart(7)}`,
    );
    fs.rmSync(join(root, `raw-${lines}.jsonl`));
    fs.rmSync(join(root, `ours-${lines}.jsonl`));
    fs.rmSync(join(root, `ref-${lines}.jsonl`), { force: true });
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
