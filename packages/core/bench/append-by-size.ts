/**
 * Persisted `appendMessage` by message size, ours against the reference (pi 1.6.0), in one
 * process, batches interleaved (the order alternates each round), on files of `--entries`
 * entries each side opened with its own `SessionManager.open`. Sizes follow the corpus: user
 * prompts, assistant turns around the median (≈ 680 B lines) and mean (≈ 1.2 kB), tool results
 * at the p90 (≈ 2.4 kB) and up to tens of kB. Wall time (hrtime) and CPU time (user + system)
 * per append, medians over `--rounds`; the floor is one `JSON.stringify` of the entry and one
 * `writeSync` to a kept-open file, the work any persisted append must do; the checked floor
 * adds the `fstat` of that fd that SPEC W7 asks of ours before every write (a file replaced,
 * truncated or appended to behind us is seen before our line lands), which pi does not make.
 * On Linux 6.13+ (multigrain timestamps) that stat also makes the next write update the file's
 * times, so it costs more than the call alone.
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/core/bench/append-by-size.ts
 *
 * Flags: `--rounds=N` (default 9), `--entries=N` (default 20000), `--out=path.json`.
 */

import {
  closeSync,
  copyFileSync,
  fstatSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { flagValue, numberFlag } from "./flags.js";
import { createRng, generateLines } from "./generate.js";
import { loadReference } from "./reference.js";

const rounds = numberFlag("rounds", 9);
const entries = numberFlag("entries", 20000);

/** A size bucket: what the messages are and how many appends make a batch. */
interface Bucket {
  readonly name: string;
  /** Target length of the message's JSON. */
  readonly bytes: number;
  readonly role: "user" | "assistant" | "toolResult";
  readonly batch: number;
}

const BUCKETS: readonly Bucket[] = [
  { name: "user prompt ~300 B", bytes: 300, role: "user", batch: 2000 },
  { name: "assistant ~680 B (median)", bytes: 680, role: "assistant", batch: 2000 },
  { name: "assistant ~1.2 kB (mean)", bytes: 1200, role: "assistant", batch: 2000 },
  { name: "tool result ~2.4 kB (p90)", bytes: 2400, role: "toolResult", batch: 1500 },
  { name: "tool result ~10 kB", bytes: 10_000, role: "toolResult", batch: 600 },
  { name: "tool result ~40 kB", bytes: 40_000, role: "toolResult", batch: 200 },
];

const WORDS =
  "the file test build error fix function module import value state append read write".split(" ");

/** Prose of about `n` characters. */
function prose(rng: ReturnType<typeof createRng>, n: number): string {
  const out: string[] = [];
  for (let len = 0; len < n; ) {
    const w = rng.pick(WORDS);
    out.push(w);
    len += w.length + 1;
  }
  return out.join(" ");
}

/** A message of the bucket's role whose JSON is about `bytes` long (a fresh object each). */
function message(
  bucket: Bucket,
  rng: ReturnType<typeof createRng>,
  i: number,
): Record<string, unknown> {
  const ts = 1_750_000_000_000 + i;
  if (bucket.role === "user") {
    const content = [{ type: "text", text: prose(rng, bucket.bytes - 60) }];
    return { role: "user", content, timestamp: ts };
  }
  if (bucket.role === "toolResult") {
    const content = [{ type: "text", text: prose(rng, bucket.bytes - 140) }];
    return {
      role: "toolResult",
      toolCallId: `toolu_${i}`,
      toolName: "read",
      content,
      isError: false,
      timestamp: ts,
    };
  }
  const usage = {
    input: 1200,
    output: 300,
    cacheRead: 40000,
    cacheWrite: 900,
    totalTokens: 42400,
    cost: { input: 0.0036, output: 0.0045, cacheRead: 0.012, cacheWrite: 0.003375, total: 0.023 },
  };
  const call = {
    type: "toolCall",
    id: `toolu_${i}`,
    name: "read",
    arguments: { path: "/work/project/src/index.ts" },
  };
  const text = prose(rng, Math.max(20, bucket.bytes - 560));
  return {
    role: "assistant",
    content: [{ type: "text", text }, call],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage,
    stopReason: "toolUse",
    timestamp: ts,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** µs per call of `fn` over `count` calls: wall and CPU (user + system). */
function measure(count: number, fn: (i: number) => void): { wall: number; cpu: number } {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) fn(i);
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / count;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / count };
}

const dir = mkdtempSync(join(tmpdir(), "pi-append-size-"));
const seedFile = join(dir, "seed.jsonl");
{
  const lines: string[] = [];
  generateLines("linear", entries, (l) => lines.push(l));
  writeFileSync(seedFile, `${lines.join("\n")}\n`);
}
const ref = await loadReference();
const rng = createRng(11);
const results: Record<string, unknown>[] = [];

for (const bucket of BUCKETS) {
  const pool = Array.from({ length: 64 }, (_, i) => message(bucket, rng, i));
  const lineBytes =
    Math.round(pool.reduce((n, m) => n + JSON.stringify(m).length, 0) / pool.length) + 80;
  type Sample = { wall: number; cpu: number };
  const samples: Record<"pi" | "ours" | "floor" | "checkedFloor", Sample[]> = {
    pi: [],
    ours: [],
    floor: [],
    checkedFloor: [],
  };
  for (let r = 0; r < rounds; r++) {
    const files = {
      pi: join(dir, `pi-${r}.jsonl`),
      ours: join(dir, `ours-${r}.jsonl`),
      floor: join(dir, `floor-${r}.jsonl`),
      checkedFloor: join(dir, `checked-${r}.jsonl`),
    };
    for (const f of Object.values(files)) copyFileSync(seedFile, f);
    const pi = ref.SessionManager.open(files.pi);
    const ours = SessionManager.open(files.ours);
    const fd = openSync(files.floor, "a");
    const checkedFd = openSync(files.checkedFloor, "a");
    let checkedSize = fstatSync(checkedFd).size;
    // Fresh message objects per call, as pi makes them; built outside the timed loop.
    const msgs = Array.from({ length: bucket.batch }, (_, i) =>
      structuredClone(pool[i % pool.length]),
    );
    const msgs2 = msgs.map((m) => structuredClone(m));
    const msgs3 = msgs.map((m) => structuredClone(m));
    const msgs4 = msgs.map((m) => structuredClone(m));
    /** The floor's entry of append `i` of `pool`, as JSON. */
    const floorLine = (from: readonly unknown[], i: number) =>
      `${JSON.stringify({
        type: "message",
        id: (i + 1).toString(16).padStart(8, "0"),
        parentId: null,
        timestamp: "2026-01-01T00:00:00.000Z",
        message: from[i],
      })}\n`;
    const runs: [keyof typeof samples, () => void][] = [
      ["pi", () => samples.pi.push(measure(bucket.batch, (i) => pi.appendMessage(msgs[i])))],
      [
        "ours",
        () =>
          samples.ours.push(measure(bucket.batch, (i) => ours.appendMessage(msgs2[i] as never))),
      ],
      [
        "floor",
        () => samples.floor.push(measure(bucket.batch, (i) => writeSync(fd, floorLine(msgs3, i)))),
      ],
      [
        "checkedFloor",
        () =>
          samples.checkedFloor.push(
            measure(bucket.batch, (i) => {
              const line = floorLine(msgs4, i);
              if (fstatSync(checkedFd).size !== checkedSize) throw new Error("changed behind us");
              checkedSize += writeSync(checkedFd, line);
            }),
          ),
      ],
    ];
    for (const [, run] of r % 2 === 0 ? runs : [...runs].reverse()) run();
    closeSync(fd);
    closeSync(checkedFd);
    ours.close();
  }
  const m = (k: keyof typeof samples, f: "wall" | "cpu") => median(samples[k].map((s) => s[f]));
  const row = {
    bucket: bucket.name,
    lineBytes,
    appendsPerRound: bucket.batch,
    rounds,
    piWallUs: m("pi", "wall"),
    oursWallUs: m("ours", "wall"),
    floorWallUs: m("floor", "wall"),
    checkedFloorWallUs: m("checkedFloor", "wall"),
    piCpuUs: m("pi", "cpu"),
    oursCpuUs: m("ours", "cpu"),
    floorCpuUs: m("floor", "cpu"),
    checkedFloorCpuUs: m("checkedFloor", "cpu"),
    wallRatio: m("ours", "wall") / m("pi", "wall"),
    cpuRatio: m("ours", "cpu") / m("pi", "cpu"),
  };
  results.push(row);
  console.log(
    `${bucket.name.padEnd(28)} line≈${String(lineBytes).padStart(6)} B  wall µs pi ${row.piWallUs.toFixed(1)} ours ${row.oursWallUs.toFixed(1)} floor ${row.floorWallUs.toFixed(1)}  ours/pi ${row.wallRatio.toFixed(2)}×  cpu µs pi ${row.piCpuUs.toFixed(1)} ours ${row.oursCpuUs.toFixed(1)} (${row.cpuRatio.toFixed(2)}×) floor ${row.floorCpuUs.toFixed(1)}, checked ${row.checkedFloorCpuUs.toFixed(1)}`,
  );
}
console.log(`(${rounds} rounds per bucket, interleaved; session files of ${entries} entries)`);
const out = flagValue("out");
const machine = { cpus: cpus().length, loadAverage: loadavg() };
if (out) writeFileSync(out, `${JSON.stringify({ rounds, entries, machine, results }, null, 2)}\n`);
rmSync(dir, { recursive: true, force: true });
