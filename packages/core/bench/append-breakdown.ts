/**
 * `pnpm bench`'s persisted append: `appendMessage` on a flushed session FILE, ours against
 * the reference in the same process, at 1k and 1M entries (generated, streamed to disk and
 * opened with each one's `SessionManager.open`), plus where ours spends its time: every stage
 * of an append timed on its own (see `append-stages.ts`). Ours is measured as opened ("cold":
 * no context built yet) and after one `buildSessionContext` ("warm": the context summary is
 * extended on every append, as in pi, which builds the context every turn). The whole appends
 * are measured in rounds of their own, interleaved, then the stages in theirs.
 *
 * The reference appends with `appendFileSync` (open, write, close); ours `fstat`s its kept fd
 * (the tail check: size and identity) and writes. On Linux 6.13+ (multigrain timestamps) a
 * stat that reads the times makes the next write of that file update the inode's times, which
 * a write in the same clock tick would otherwise skip: the "fstat + write (same fd)" row is
 * dearer than its two parts. Node's fstat always asks for the times.
 *
 *   pnpm exec node --conditions=@pi-sessions/source --import tsx bench/append-breakdown.ts
 *
 * Flags: `--sizes=1000,1000000`, `--rounds=N` samples per function (default 300), `--batch=N`
 * appends per sample (default 20), `--no-stages` (wholes only), `--dir=path` (default: a temp
 * dir; the 1M files take 3 × 640 MB), `--out=path` (write the figures as JSON, as
 * `pnpm bench` does to bench/append-results.json).
 */

import * as fs from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { appendStages, messageAt, type Stage } from "./append-stages.js";
import { flagValue, numberFlag } from "./flags.js";
import { generateLines, type MessagePool, messagePool } from "./generate.js";
import { formatNs, formatRatio, type Measurement, measureRounds, timeOnce } from "./harness.js";
import { loadReference, type RefManager, type RefModule } from "./reference.js";

const sizes = (flagValue("sizes") ?? "1000,1000000").split(",").map(Number);
const rounds = numberFlag("rounds", 300);
const batch = numberFlag("batch", 20);
const withStages = !process.argv.includes("--no-stages");
const out = flagValue("out") ?? "";
const WARMUP = 50;

/** Streams a generated LINEAR session of `size` entries into `path` in 4 MiB writes. */
function writeSessionFile(path: string, size: number): number {
  const fd = fs.openSync(path, "w", 0o600);
  let buffer: string[] = [];
  let pending = 0;
  const flush = (): void => {
    fs.writeSync(fd, buffer.join(""));
    buffer = [];
    pending = 0;
  };
  try {
    generateLines("linear", size, (line) => {
      buffer.push(line, "\n");
      pending += line.length + 1;
      if (pending >= 4 << 20) flush();
    });
    flush();
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(path).size;
}

/** One row of the printed table and of the JSON. */
interface Row {
  readonly size: number;
  readonly name: string;
  readonly result: Measurement;
}

/** The three whole appends: ours warm, ours cold, the reference, each on its own copy. */
function wholeAppends(
  file: string,
  dir: string,
  ref: RefModule,
  pool: MessagePool,
): { fns: [string, Stage][]; ours: SessionManager; reference: RefManager; close: () => void } {
  const copy = (name: string): string => {
    const path = join(dir, name);
    fs.copyFileSync(file, path);
    return path;
  };
  const warm = SessionManager.open(copy("ours-warm.jsonl"));
  warm.buildSessionContext();
  const cold = SessionManager.open(copy("ours-cold.jsonl"));
  const reference = ref.SessionManager.open(copy("ref.jsonl"));
  fs.rmSync(file); // each has its copy: 640 MB less on disk at 1M
  // The first append takes our lock and opens the fd: not what is measured.
  for (const sm of [warm, cold, reference]) sm.appendMessage(messageAt(pool, 0) as never);
  const fns: [string, Stage][] = [
    ["ours appendMessage (warm)", (_, i) => warm.appendMessage(messageAt(pool, i))],
    ["ours appendMessage (cold)", (_, i) => cold.appendMessage(messageAt(pool, i))],
    ["ref appendMessage", (_, i) => reference.appendMessage(messageAt(pool, i))],
  ];
  return {
    fns,
    ours: warm,
    reference,
    close: () => {
      warm.close();
      cold.close();
    },
  };
}

/** Measures one size; returns its rows. */
function measureSize(size: number, ref: RefModule, pool: MessagePool): Row[] {
  const dir = fs.mkdtempSync(join(flagValue("dir") ?? tmpdir(), "pi-append-bench-"));
  try {
    const file = join(dir, "session.jsonl");
    const made = timeOnce(() => writeSessionFile(file, size));
    const opened = timeOnce(() => wholeAppends(file, dir, ref, pool));
    const whole = opened.value;
    const calls = (rounds + WARMUP + 2) * batch;
    const stages = withStages
      ? appendStages({ ours: whole.ours, reference: whole.reference, pool, dir, calls })
      : { stages: [], lineBytes: Number.NaN, close: () => {} };
    console.log(
      `\n== ${size} entries, ${(made.value / 1e6).toFixed(0)} MB (written in ${(made.ms / 1e3).toFixed(1)} s, ` +
        `opened ×3 in ${(opened.ms / 1e3).toFixed(1)} s), lines ≈${stages.lineBytes.toFixed(0)} B, ` +
        `${rounds} rounds × ${batch} calls`,
    );
    // The whole appends get rounds of their own: stages that keep what they make (the fold
    // chain) would otherwise leave their GC debt to whichever append runs next.
    const budget = {
      batch,
      warmupSamples: WARMUP,
      minSamples: rounds,
      maxSamples: rounds,
      minMs: 0,
    };
    const wholes = measureRounds(
      whole.fns.map(([, fn]) => fn),
      budget,
    );
    const parts = measureRounds(
      stages.stages.map(([, fn]) => fn),
      budget,
    );
    whole.close();
    stages.close();
    return [
      ...whole.fns.map(([name], k) => ({ size, name, result: wholes[k] as Measurement })),
      ...stages.stages.map(([name], k) => ({ size, name, result: parts[k] as Measurement })),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints one size's rows: median, min, and each whole append's ratio to the reference. */
function printRows(rows: readonly Row[]): void {
  const ref = rows.find((r) => r.name === "ref appendMessage")?.result;
  console.log(
    `${"stage".padEnd(28)} ${"median".padStart(9)} ${"min".padStart(9)} ${"mean".padStart(9)}  ours/ref`,
  );
  for (const r of rows) {
    const ratio =
      r.name.startsWith("ours appendMessage") && ref
        ? `${formatRatio(r.result.medianNs / ref.medianNs)} (min ${formatRatio(r.result.minNs / ref.minNs)}, mean ${formatRatio(r.result.meanNs / ref.meanNs)})`
        : "";
    console.log(
      `${r.name.padEnd(28)} ${formatNs(r.result.medianNs).padStart(9)} ${formatNs(r.result.minNs).padStart(9)} ${formatNs(r.result.meanNs).padStart(9)}  ${ratio}`,
    );
  }
}

async function main(): Promise<void> {
  const ref = await loadReference();
  const pool = messagePool();
  console.log(
    `append-breakdown — node ${process.version}, ${cpus().length}× ${cpus()[0]?.model ?? "cpu"}; ` +
      "cells: median (min) per call over interleaved rounds",
  );
  const rows: Row[] = [];
  for (const size of sizes) {
    const sizeRows = measureSize(size, ref, pool);
    printRows(sizeRows);
    rows.push(...sizeRows);
  }
  const of = (size: number, name: string, key: "medianNs" | "meanNs"): number =>
    rows.find((r) => r.size === size && r.name === name)?.result[key] ?? Number.NaN;
  const ratio = (size: number, name: string, key: "medianNs" | "meanNs" = "medianNs"): number =>
    of(size, `ours appendMessage (${name})`, key) / of(size, "ref appendMessage", key);
  console.log(
    `\npersisted appendMessage, ours/ref (same process, interleaved rounds, ${rounds} × ${batch}):`,
  );
  for (const size of sizes) {
    console.log(
      `  ${String(size).padStart(8)} entries: medians warm ${formatRatio(ratio(size, "warm"))}, ` +
        `cold ${formatRatio(ratio(size, "cold"))}; means (GC included) warm ` +
        `${formatRatio(ratio(size, "warm", "meanNs"))}, cold ${formatRatio(ratio(size, "cold", "meanNs"))}`,
    );
  }
  if (out) {
    const round3 = (x: number): number => Math.round(x * 1000) / 1000;
    const json = {
      meta: {
        date: new Date().toISOString(),
        node: process.version,
        cpu: cpus()[0]?.model,
        cpus: cpus().length,
        rounds,
        batch,
      },
      ratios: sizes.map((size) => ({
        size,
        warm: round3(ratio(size, "warm")),
        cold: round3(ratio(size, "cold")),
        warmMean: round3(ratio(size, "warm", "meanNs")),
        coldMean: round3(ratio(size, "cold", "meanNs")),
      })),
      rows: rows.map((r) => ({
        size: r.size,
        name: r.name,
        medianNs: Math.round(r.result.medianNs),
        minNs: Math.round(r.result.minNs),
        meanNs: Math.round(r.result.meanNs),
        samples: r.result.samples,
        calls: r.result.calls,
      })),
    };
    fs.writeFileSync(out, `${JSON.stringify(json, null, 2)}\n`);
    console.log(`wrote ${out}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
